import { describe, expect, it } from 'vitest';
import { partAClasses, sources } from '../shared/children/fourth-schedule';

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
});
