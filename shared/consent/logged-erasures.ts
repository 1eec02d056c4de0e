import { sha256Hex } from '../crypto/hash';
import { documentsOf, type LoggedDocument } from '../evidence/documents';
import { retentionDocumentTypes } from '../retention/documents';
import type { RecordBinding, WithdrawalBinding } from './erasure-binding';

export interface Logged<B> {
  binding: B;
  /** The retention.erased entry that logged it, as logged (its hash is the entry's leaf data). */
  documentId: string;
  canonical: string;
  hash: string;
  /** When and by which run, as the entry says. */
  at: string;
  runId: string | null;
}

export interface LoggedErasures {
  /** Her retention.erased documents as stored, oldest first (an evidence pack carries them whole). */
  documents: LoggedDocument[];
  records: Map<string, Logged<RecordBinding>>;
  withdrawals: Map<string, Logged<WithdrawalBinding>>;
}

interface ErasedContent {
  runId?: string;
  recordBindings?: RecordBinding[];
  /** Erasures logged before user agents and IP addresses were erased bound the external id alone, under this name. */
  externalIds?: RecordBinding[];
  withdrawalBindings?: WithdrawalBinding[];
}

/**
 * The bindings retention logged for a principal's records and withdrawals whose values it erased
 * (evidence-erasure.ts), by id (only the sweep writes retention.erased: no API route can). One
 * Query of her retention documents. A document that no longer hashes to its stored hash binds
 * nothing; whether that hash is the log's is the log's own check.
 */
export const loggedErasures = async (tenantId: string, principalHash: string): Promise<LoggedErasures> => {
  const documents = (await documentsOf(tenantId, `retention:${principalHash}`)).filter((document) => document.documentType === retentionDocumentTypes.erased);
  const erasures: LoggedErasures = { documents, records: new Map(), withdrawals: new Map() };
  for (const document of documents) {
    if (sha256Hex(document.canonical) !== document.hash) continue;
    const { at, content } = JSON.parse(document.canonical) as { at: string; content: ErasedContent };
    const logged = { documentId: document.documentId, canonical: document.canonical, hash: document.hash, at, runId: content.runId ?? null };
    for (const binding of [...(content.recordBindings ?? []), ...(content.externalIds ?? [])]) erasures.records.set(binding.recordId, { ...logged, binding });
    for (const binding of content.withdrawalBindings ?? []) erasures.withdrawals.set(binding.withdrawalId, { ...logged, binding });
  }
  return erasures;
};
