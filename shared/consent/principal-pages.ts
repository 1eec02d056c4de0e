import type { ConsentRecord } from './record';
import { readPartitionPage } from './record-ranges';

/**
 * The tenant's principals, page by page, from its consent records: for work that must reach each
 * of them (a breach's intimation). Records are read record partition by partition (record-ranges.ts;
 * never a Scan), `limit` records a page, so a page yields at most `limit` distinct
 * principals; one with records on several pages appears on each, and the caller deduplicates
 * (the breach intimation's per-principal markers do). `next` is where the following page starts,
 * null after the last; it is the store's position, opaque to the caller and never shown to a client.
 */

export interface PrincipalFilter {
  /** Only principals with a record of one of these notices. */
  noticeIds?: readonly string[];
  /** Only principals with a record granting one of these purposes. */
  purposeIds?: readonly string[];
}

const matches = (filter: PrincipalFilter) => {
  const notices = filter.noticeIds ? new Set(filter.noticeIds) : undefined;
  const purposes = filter.purposeIds ? new Set(filter.purposeIds) : undefined;
  return (record: ConsentRecord) =>
    (!notices || notices.has(record.noticeId)) && (!purposes || Object.entries(record.consentGiven).some(([purposeId, granted]) => granted && purposes.has(purposeId)));
};

export const principalPage = async (tenantId: string, filter: PrincipalFilter, limit: number, start: Record<string, unknown> | undefined) => {
  const { records, next } = await readPartitionPage(tenantId, limit, start);
  const hashes = [...new Set(records.filter(matches(filter)).map((record) => record.dataPrincipalHash))];
  return { hashes, next: next as Record<string, unknown> | null };
};
