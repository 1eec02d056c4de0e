import { describe, expect, it } from 'vitest';
import { retentionInWords, retentionText } from '../shared/retention/retention-words';
import { noticeBannerWords } from '../shared/words/widget-words';

/** A purpose's retention in the label sets' words: units with their number, joined, one sentence per start, the legal hold after it. */
const english = (key: keyof typeof noticeBannerWords) => noticeBannerWords[key];

describe('a retention in words', () => {
  it('says each start with its period, singular and plural, units joined in order', () => {
    expect(retentionInWords({ period: 'P3Y', from: 'LAST_ACTIVITY' }, english)).toBe('Kept for 3 years after your last activity.');
    expect(retentionInWords({ period: 'P1Y', from: 'WITHDRAWAL' }, english)).toBe('Kept until 1 year after you withdraw or refuse consent.');
    expect(retentionInWords({ period: 'P1Y6M', from: 'CONSENT' }, english)).toBe('Kept for 1 year and 6 months after you give consent.');
    expect(retentionInWords({ period: 'P2W', from: 'CONSENT' }, english)).toBe('Kept for 2 weeks after you give consent.');
    expect(retentionInWords({ period: 'PT1H30M', from: 'LAST_ACTIVITY' }, english)).toBe('Kept for 1 hour and 30 minutes after your last activity.');
  });

  it('adds the legal hold as its own sentence', () => {
    expect(retentionInWords({ period: 'P90D', from: 'LAST_ACTIVITY', legalHold: 'Income-tax Act, 1961' }, english)).toBe(
      'Kept for 90 days after your last activity. Some of it may be kept longer where a law requires it: Income-tax Act, 1961',
    );
  });

  it('is said whole in English where a language lacks a word it needs, never half and half', () => {
    const words = { EN: { ...noticeBannerWords }, HI: { 'notice.retention.LAST_ACTIVITY': 'आपकी अंतिम गतिविधि के बाद {period} तक रखा जाता है।', 'notice.retention.and': '{first} और {next}', 'notice.retention.years.other': '{count} वर्ष' } };
    expect(retentionText({ period: 'P3Y', from: 'LAST_ACTIVITY' }, words, 'HI')).toEqual({ text: 'आपकी अंतिम गतिविधि के बाद 3 वर्ष तक रखा जाता है।', language: 'HI' });
    // No Hindi word for months: all of it in English.
    expect(retentionText({ period: 'P3Y6M', from: 'LAST_ACTIVITY' }, words, 'HI')).toEqual({ text: 'Kept for 3 years and 6 months after your last activity.', language: 'EN' });
    expect(retentionText({ period: 'P3Y', from: 'CONSENT' }, words, 'HI')).toEqual({ text: 'Kept for 3 years after you give consent.', language: 'EN' });
  });

  it('says nothing of a period that is no duration', () => {
    expect(retentionInWords({ period: 'three years', from: 'LAST_ACTIVITY' }, english)).toBeUndefined();
    expect(retentionText({ period: 'P3Y', from: 'LAST_ACTIVITY' }, {}, 'EN')).toBeUndefined();
  });
});
