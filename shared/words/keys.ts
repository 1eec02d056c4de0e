import { tenantPartition } from '../tenants/keys';

/**
 * Principal words keys: one small head per tenant and one item per language, in the tenant's
 * partition. Every change writes the head (conditional on its revision) with the language items
 * it touches, in one transaction, so concurrent changes serialise on the head and none is lost.
 *
 * Access patterns:
 * - words overview, notice banner words .. GetItem  PK=TENANT#<tid> SK=WORDS#HEAD            (the setting, each language's
 *   status and counts, and the notice banner's shown words: ~1 KB per shown language)
 * - one language's words ................. GetItem  PK=TENANT#<tid> SK=WORDS#LANG#<CODE>     (every key's text and status, ≤ ~50 KB)
 * - words for a page or a mail ........... BatchGet the head, WORDS#LANG#EN and WORDS#LANG#<CODE> (3 keys, one request)
 * - public notice with its banner words .. GetItem PUBLICNOTICE and GetItem the head, in parallel (the widget's one request)
 */
export const wordsKeys = {
  head: (tenantId: string) => ({ PK: tenantPartition(tenantId), SK: 'WORDS#HEAD' }),
  language: (tenantId: string, language: string) => ({ PK: tenantPartition(tenantId), SK: `WORDS#LANG#${language}` }),
};
