import { sha256Hex } from '../crypto/hash';
import { documentsOf } from '../evidence/documents';
import { retentionDocumentTypes } from '../retention/documents';
import type { ExternalIdBinding } from './external-id-erasure';

export interface LoggedBinding {
  binding: ExternalIdBinding;
  /** The retention.erased entry that logged it, as logged (its hash is the entry's leaf data). */
  documentId: string;
  canonical: string;
  hash: string;
}

/**
 * The bindings retention logged for a principal's records whose external id it erased, by record
 * id (only the sweep writes retention.erased: no API route can). A document that no longer hashes
 * to its stored hash binds nothing; whether that hash is the log's is the log's own check.
 */
export const erasedIdBindings = async (tenantId: string, principalHash: string): Promise<Map<string, LoggedBinding>> => {
  const bindings = new Map<string, LoggedBinding>();
  for (const document of await documentsOf(tenantId, `retention:${principalHash}`)) {
    if (document.documentType !== retentionDocumentTypes.erased || sha256Hex(document.canonical) !== document.hash) continue;
    const { content } = JSON.parse(document.canonical) as { content: { externalIds?: ExternalIdBinding[] } };
    for (const binding of content.externalIds ?? []) bindings.set(binding.recordId, { binding, documentId: document.documentId, canonical: document.canonical, hash: document.hash });
  }
  return bindings;
};
