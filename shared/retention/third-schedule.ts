/**
 * The law this domain applies, as data: s.8(7) of the Digital Personal Data Protection Act, 2023,
 * rules 6 and 8 of the Digital Personal Data Protection Rules, 2025 (notified 13 November 2025;
 * rules 6 and 8 in force 13 May 2027), the Third Schedule rule 8(1) refers to, and the Seventh
 * Schedule rule 8(3) refers to for the year every fiduciary keeps its logs.
 *
 * Each class keeps the schedule's serial number, its words, its threshold and its time period, and
 * each exception its clause, so a DPO can check them against the Gazette and the evidence of an
 * erasure names what it relied on. Texts are the schedule's, shortened only where marked with an
 * ellipsis. Pure: the dashboard imports it.
 */

export const sources = {
  act: {
    title: 'Digital Personal Data Protection Act, 2023 (22 of 2023), section 8(7)',
    url: 'https://www.dpdpa.com/dpdpa2023/chapter-2/section8.html',
  },
  rule6: {
    title: 'DPDP Rules, 2025, rule 6: reasonable security safeguards (6(1)(e): logs and personal data kept one year)',
    url: 'https://dpdpa.co.in/rule-6-dpdp-2025',
  },
  rule8: {
    title: 'DPDP Rules, 2025, rule 8: time period for specified purpose to be deemed as no longer being served',
    url: 'https://www.dpdpa.in/dpdpa_rules_2025/Rule_8.htm',
  },
  thirdSchedule: {
    title: 'DPDP Rules, 2025, Third Schedule [see rule 8(1)]',
    url: 'https://www.dpdpa.in/dpdpa_rules_2025/schedule3.htm',
  },
  seventhSchedule: {
    title: 'DPDP Rules, 2025, Seventh Schedule [see rules 23(1) and 8(3)]',
    url: 'https://dpdpa.co.in/seventh-schedule-2025',
  },
} as const;

/**
 * Column (4) of every row: three years from the date the principal last approached the fiduciary
 * for the specified purpose or exercised her rights, or the commencement of the Rules, whichever
 * is later. "Commencement of the Rules" is read as their publication in the Gazette (rule 1(2):
 * the rules other than those deferred came into force then); a tenant that reads it as rule 8's own
 * commencement (13 May 2027) only ever erases later, which a shorter period of its own overrides.
 */
export const thirdSchedulePeriod = 'P3Y';
export const rulesCommencement = '2025-11-13T00:00:00.000Z';

/** Rule 8(2): at least forty-eight hours before the period ends, the principal is told. */
export const thirdScheduleNoticeHours = 48;

/** Rules 6(1)(e) and 8(3): the personal data, traffic data and logs of processing are kept at least one year from the processing. */
export const logRetentionDays = 365;

/** The exceptions in column (3) of every row: purposes the period does not apply to. */
export const exceptions = {
  USER_ACCOUNT_ACCESS: {
    clause: '(a)',
    purpose: 'Enabling the Data Principal to access her user account',
  },
  VIRTUAL_TOKEN_ACCESS: {
    clause: '(b)',
    purpose:
      'Enabling the Data Principal to access any virtual token that is issued by or on behalf of the Data Fiduciary, is stored on the digital facility or platform of such Data Fiduciary, and may be used to get money, goods or services',
  },
} as const;

/** Column (2): the classes, each with its threshold of registered users in India. */
export const classes = {
  ECOMMERCE: {
    serial: 1,
    class: 'Data Fiduciary who is an e-commerce entity having not less than two crore registered users in India',
    registeredUsersAtLeast: 20_000_000,
    definition:
      'Note (a): any person who owns, operates or manages a digital facility or platform for e-commerce as defined in the Consumer Protection Act, 2019, but not a seller offering her goods or services on a marketplace e-commerce entity',
  },
  ONLINE_GAMING: {
    serial: 2,
    class: 'Data Fiduciary who is an online gaming intermediary having not less than fifty lakh registered users in India',
    registeredUsersAtLeast: 5_000_000,
    definition: 'Note (b): any intermediary who enables the users of its computer resource to access one or more online games',
  },
  SOCIAL_MEDIA: {
    serial: 3,
    class: 'Data Fiduciary who is a social media intermediary having not less than two crore registered users in India',
    registeredUsersAtLeast: 20_000_000,
    definition: 'Note (c): a social media intermediary as defined in the Information Technology (Intermediary Guidelines and Digital Media Ethics Code) Rules, 2021',
  },
} as const;

export type ThirdScheduleClass = keyof typeof classes;
export type ThirdScheduleException = keyof typeof exceptions;

export const thirdScheduleClassIds = Object.keys(classes) as [ThirdScheduleClass, ...ThirdScheduleClass[]];
export const thirdScheduleExceptionIds = Object.keys(exceptions) as [ThirdScheduleException, ...ThirdScheduleException[]];

/** The schedule as the API and the dashboard show it. */
export const thirdSchedule = () => ({
  classes: Object.entries(classes).map(([id, entry]) => ({ id, ...entry, period: thirdSchedulePeriod })),
  exceptions: Object.entries(exceptions).map(([id, entry]) => ({ id, ...entry })),
  noticeHours: thirdScheduleNoticeHours,
  rulesCommencement,
  logRetentionDays,
  sources,
});
