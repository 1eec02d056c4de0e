import { describe, expect, it } from 'vitest';
import { partAClasses, partBPurposes, purposeExemption, sources } from '../shared/children/fourth-schedule';

/** The schedule's words are evidence (an exempt record quotes them): they are the notified text, not a paraphrase. */
describe('the Fourth Schedule as data', () => {
  it('Part A item 3 (educational institution) carries the notified condition: tracking and behavioural monitoring, then (a) or (b)', () => {
    expect(partAClasses.EDUCATIONAL_INSTITUTION).toEqual({
      serial: 3,
      class: 'A Data Fiduciary who is an educational institution',
      condition:
        'Processing is restricted to tracking and behavioural monitoring\u2014(a) for the educational activities of such institution; or (b) in the interests of safety of children enrolled with such institution.',
    });
  });

  it('numbers Part A 1 to 5 and names its source', () => {
    expect(Object.values(partAClasses).map((entry) => entry.serial)).toEqual([1, 2, 3, 4, 5]);
    expect(sources.fourthSchedulePartA.title).toContain('[see rule 12]');
  });

  it('numbers Part B 1 to 6 as notified: the real-time location of a child is item 4, and item 5 covers information, services and advertisements', () => {
    expect(Object.entries(partBPurposes).map(([id, entry]) => `${entry.serial}:${id}`)).toEqual([
      '1:LEGAL_DUTY_IN_CHILD_INTEREST',
      '2:SUBSIDY_OR_BENEFIT',
      '3:EMAIL_ACCOUNT',
      '4:REAL_TIME_LOCATION',
      '5:SHIELD_FROM_HARMFUL_INFORMATION',
      '6:AGE_CONFIRMATION',
    ]);
    expect(partBPurposes.SHIELD_FROM_HARMFUL_INFORMATION.purpose).toContain('information, service or advertisement');
    expect(purposeExemption('p', 'AGE_CONFIRMATION').exemption).toBe('B6:AGE_CONFIRMATION');
  });
});
