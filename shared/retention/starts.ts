/** Where a purpose's retention period starts (docs/retention.md). Pure, and imports nothing: notices/notice.ts names it. */
export const retentionStarts = ['LAST_ACTIVITY', 'CONSENT', 'WITHDRAWAL'] as const;
export type RetentionStart = (typeof retentionStarts)[number];
