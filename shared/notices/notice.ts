import type { RetentionStart } from '../retention/starts';
import type { ThirdScheduleException } from '../retention/third-schedule';
import type { LanguageCode } from '../i18n/languages';

export const noticeStatuses = ['DRAFT', 'PUBLISHED', 'ARCHIVED'] as const;
export type NoticeStatus = (typeof noticeStatuses)[number];

export const legalBases = ['CONSENT', 'LEGITIMATE_USE'] as const;
export type LegalBasis = (typeof legalBases)[number];

export interface PurposeConfig {
  purposeId: string;
  isRequired: boolean;
  displayOrder: number;
}

/**
 * Where a translation came from: typed by a person, drafted by the machine translator, or
 * English kept because the translator lacks the language (a person must translate it).
 */
export type TranslationSource = 'MANUAL' | 'MACHINE_DRAFTED' | 'NEEDS_TRANSLATION';

export interface PurposeTranslation {
  name?: string;
  description?: string;
}

export interface NoticeTranslation {
  title?: string;
  introText?: string;
  rightsText?: string;
  complaintText?: string;
  /** Purpose names and descriptions in this language, by purpose id. */
  purposes?: Record<string, PurposeTranslation>;
  source: TranslationSource;
  updatedAt: string;
}

export type NoticeTranslations = Partial<Record<LanguageCode, NoticeTranslation>>;

/** What a notice says, in English: the fields a published version freezes. */
export interface NoticeText {
  title: string;
  introText: string;
  contactEmail: string;
  contactUrl: string | null;
  rightsText: string;
  complaintText: string;
  withdrawalUrl: string | null;
}

/** Copies exactly the text fields, so a view or snapshot never picks up other fields of its source. */
export const noticeTextOf = (source: NoticeText): NoticeText => ({
  title: source.title,
  introText: source.introText,
  contactEmail: source.contactEmail,
  contactUrl: source.contactUrl,
  rightsText: source.rightsText,
  complaintText: source.complaintText,
  withdrawalUrl: source.withdrawalUrl,
});

export interface Notice extends NoticeText {
  noticeId: string;
  tenantId: string;
  /** Every version of one notice shares a lineage; version numbers count per lineage. */
  lineageId: string;
  status: NoticeStatus;
  /** Set at publish; a draft made by revise has none until it is published. */
  versionNumber: number | null;
  purposeIds: string[];
  purposeConfig: PurposeConfig[];
  translations: NoticeTranslations;
  /** Bumped by every write of a draft; publish is conditional on the revision it read. */
  revision: number;
  createdAt: string;
  updatedAt: string;
  publishedAt: string | null;
  archivedAt: string | null;
}

export interface Purpose {
  purposeId: string;
  tenantId: string;
  name: string;
  description: string;
  dataCategories: string[];
  legalBasis: LegalBasis;
  /** s.9(3): tracking, behavioural monitoring or targeted advertising; never consented to by a child (absent: false). */
  childProhibited?: boolean;
  /** s.8(7), rule 8: how long the purpose's data is kept, and from when (retention/; absent: no erasure scheduled). */
  retention?: PurposeRetention | null;
  /** Third Schedule, column (3): an excepted purpose (absent: none). */
  thirdScheduleException?: ThirdScheduleException | null;
  createdAt: string;
  updatedAt: string;
}

export interface PurposeRetention {
  period: string;
  from: RetentionStart;
  legalHold?: string;
}

/** A purpose as it stood when a version was published. */
export interface SnapshotPurpose {
  id: string;
  name: string;
  description: string;
  dataCategories: string[];
  legalBasis: LegalBasis;
  required: boolean;
  displayOrder: number;
  /** The purpose's retention as published (absent: none, or a version published before retention existed): what the public notice states. */
  retention?: PurposeRetention;
}

/** The immutable record of exactly what a published version said. */
export interface NoticeSnapshot extends NoticeText {
  noticeId: string;
  lineageId: string;
  versionNumber: number;
  changeNote: string | null;
  publishedAt: string;
  publishedBy: string;
  /** In display order. */
  purposes: SnapshotPurpose[];
  translations: NoticeTranslations;
}

export interface NoticeChange {
  /** Dotted path: `title`, `purposes.<id>`, `purposes.<id>.dataCategories`, `translations.HI`, ... */
  field: string;
  type: 'added' | 'removed' | 'modified';
  isMaterial: boolean;
  oldValue?: unknown;
  newValue?: unknown;
}
