/**
 * The law this domain applies, as data: s.9 of the Digital Personal Data Protection Act, 2023,
 * Rules 10, 11 and 12 of the Digital Personal Data Protection Rules, 2025 (notified 13 November
 * 2025; Rules 10 to 12 in force 13 May 2027) and the Fourth Schedule the Rules' rule 12 refers to.
 * The numbering is the notified one: in the January 2025 draft the schedule hung off rule 11 and
 * the person with a disability shared rule 10 (pages quoting the draft say "See rule 11").
 *
 * Each class and purpose keeps the schedule's serial number, its words and its condition, so the
 * evidence of an exempt record names exactly what it relied on, and a DPO can check it against the
 * Gazette. Texts are the schedule's, shortened only where marked with an ellipsis.
 */

export const sources = {
  act: {
    title: 'Digital Personal Data Protection Act, 2023 (22 of 2023), section 9',
    url: 'https://www.dpdpa.com/dpdpa2023/chapter-4/section9.html',
  },
  rule10: {
    title: 'DPDP Rules, 2025, rule 10: verifiable consent for processing of personal data of child',
    url: 'https://www.dpdpa.in/dpdpa_rules_2025/Rule_10.htm',
  },
  rule11: {
    title: 'DPDP Rules, 2025, rule 11: verifiable consent for processing of personal data of person with disability who has lawful guardian',
    url: 'https://www.dpdpa.com/dpdparules/rule11.html',
  },
  rule12: {
    title: 'DPDP Rules, 2025, rule 12: exemptions from certain obligations applicable to processing of personal data of child',
    url: 'https://www.dpdpa.com/dpdparules/rule12.html',
  },
  fourthSchedulePartA: {
    title: 'DPDP Rules, 2025, Fourth Schedule [see rule 12], Part A',
    url: 'https://dpdpa.co.in/fourth-schedule-2025',
  },
  fourthSchedulePartB: {
    title: 'DPDP Rules, 2025, Fourth Schedule [see rule 12], Part B',
    // Six purposes as notified (G.S.R. 846(E)): the January 2025 draft had five, without the
    // real-time location of a child and with "information" alone where "information, service or
    // advertisement" now stands. Some transcriptions (dpdpa.co.in) still show the draft's five.
    url: 'https://www.dpdpa.in/dpdpa_rules_2025/schedule4-B.htm',
  },
} as const;

/** What the schedule lifts for an exempt class or purpose: the parent's verifiable consent and the ban on tracking (s.9(1) and s.9(3)). */
export const exemptedProvisions = ['s.9(1)', 's.9(3)'] as const;

/**
 * Part A: classes of Data Fiduciaries in respect of whom sub-sections (1) and (3) of section 9
 * shall not apply, each under its condition.
 */
export const partAClasses = {
  HEALTHCARE: {
    serial: 1,
    class: 'A Data Fiduciary who is a clinical establishment, mental health establishment or healthcare professional',
    condition: 'Processing is restricted to provision of health services to the child by such establishment or professional, to the extent necessary for the protection of her health.',
  },
  ALLIED_HEALTHCARE: {
    serial: 2,
    class: 'A Data Fiduciary who is an allied healthcare professional',
    condition: 'Processing is restricted to supporting implementation of any healthcare treatment and referral plan recommended by such professional for the child, to the extent necessary for the protection of her health.',
  },
  EDUCATIONAL_INSTITUTION: {
    serial: 3,
    class: 'A Data Fiduciary who is an educational institution',
    // As notified (G.S.R. 846(E), 13 November 2025): the clause ends in a dash and two alternatives,
    // (a) and (b). Some transcriptions drop them (www.dpdpa.com's table stops at "monitoring:");
    // checked against a transcription of the notified schedule that keeps them (2026-11-28).
    condition:
      'Processing is restricted to tracking and behavioural monitoring—(a) for the educational activities of such institution; or (b) in the interests of safety of children enrolled with such institution.',
  },
  CRECHE_OR_DAY_CARE: {
    serial: 4,
    class: 'A Data Fiduciary who is an individual in whose care infants and children in a crèche or child day care centre are entrusted',
    condition: 'Processing is restricted to tracking and behavioural monitoring in the interests of safety of children entrusted in the care of such institution, crèche or centre.',
  },
  CHILD_TRANSPORT: {
    serial: 5,
    class: 'A Data Fiduciary who is engaged by an educational institution, crèche or child care centre for transport of children enrolled with such institution, crèche or centre',
    condition: 'Processing is restricted to tracking the location of such children, in the interests of their safety, during the course of their travel to and from such institution, crèche or centre.',
  },
} as const;

/** Part B: purposes for which sub-sections (1) and (3) of section 9 shall not apply, each under its condition. */
export const partBPurposes = {
  LEGAL_DUTY_IN_CHILD_INTEREST: {
    serial: 1,
    purpose: 'For the exercise of any power, performance of any function or discharge of any duties in the interests of a child, under any law for the time being in force in India',
    condition: 'Processing is restricted to the extent necessary for such exercise, performance or discharge.',
  },
  SUBSIDY_OR_BENEFIT: {
    serial: 2,
    purpose: 'For the providing or issuing of any subsidy, benefit, service, certificate, licence or permit, by whatever name called, under law or policy or using public funds, in the interests of a child, under clause (b) of section 7 of the Act',
    condition: 'Processing is restricted to the extent necessary for such provision or issuance.',
  },
  EMAIL_ACCOUNT: {
    serial: 3,
    purpose: 'For the creation of a user account for communicating by email',
    condition: 'Processing is restricted to the extent necessary for creating such user account, the use of which is limited to communication by email.',
  },
  REAL_TIME_LOCATION: {
    serial: 4,
    purpose: 'For the determination of real-time location of a child',
    condition: 'Processing is restricted to the tracking of real-time location of such child, in the interest of her safety and protection or security.',
  },
  SHIELD_FROM_HARMFUL_INFORMATION: {
    serial: 5,
    purpose: 'For ensuring that any information, service or advertisement likely to cause any detrimental effect on the well-being of a child is not accessible to her',
    condition: 'Processing is restricted to the extent necessary to ensure that such information, service or advertisement is not accessible to the child.',
  },
  AGE_CONFIRMATION: {
    serial: 6,
    purpose: 'For confirmation by the Data Fiduciary that the Data Principal is not a child and observance of due diligence under rule 10',
    condition: 'Processing is restricted to the extent necessary for such confirmation or observance.',
  },
} as const;

export type PartAClass = keyof typeof partAClasses;
export type PartBPurpose = keyof typeof partBPurposes;

export const partAClassIds = Object.keys(partAClasses) as [PartAClass, ...PartAClass[]];
export const partBPurposeIds = Object.keys(partBPurposes) as [PartBPurpose, ...PartBPurpose[]];

/** An exemption as the evidence of a record carries it: what was relied on, its condition and where the text is. */
export interface ExemptionEvidence {
  purposeId: string;
  /** `A<serial>:<class id>` or `B<serial>:<purpose id>`. */
  exemption: string;
  condition: string;
  source: string;
}

export const classExemption = (purposeId: string, id: PartAClass): ExemptionEvidence => ({
  purposeId,
  exemption: `A${partAClasses[id].serial}:${id}`,
  condition: partAClasses[id].condition,
  source: sources.fourthSchedulePartA.url,
});

export const purposeExemption = (purposeId: string, id: PartBPurpose): ExemptionEvidence => ({
  purposeId,
  exemption: `B${partBPurposes[id].serial}:${id}`,
  condition: partBPurposes[id].condition,
  source: sources.fourthSchedulePartB.url,
});

/** Rule 10(2)(a): an adult is an individual who has completed the age of eighteen years. */
export const adultAge = 18;
