import { canonicalJson } from '../consent/proof';
import { sha256Hex } from '../crypto/hash';
import { tableName } from '../db/client';
import { queryAll } from '../db/query';
import { named, type NamedItem } from '../db/transact';
import { newTimeOrderedId } from '../ids';

/**
 * Logged documents: evidence other than consent records and withdrawals (a rights request's
 * submission and resolution, a breach's filings and intimation batches). Each is an immutable item
 * holding the exact canonical JSON (RFC 8785) whose SHA-256 becomes a leaf of the tenant's log,
 * written in the same transaction as the state change it records. The stream's log consumer
 * sequences it like a withdrawal, and log verification re-reads and re-hashes it, so a filing
 * altered or deleted afterwards is reported with its position.
 *
 * The canonical text is stored as written, not rebuilt from a DynamoDB map: a map round trip may
 * change what was hashed (number forms, empty values), the stored bytes cannot.
 *
 * Access patterns:
 * - document by id ................. GetItem PK=EVIDENCE#<tid> SK=DOC#<documentId>   (the verifier, from a log entry's id)
 * - a subject's documents, in order  Query   GSI2 EVIDENCE#<tid>#<subjectId>, by document id (UUIDv7: time order)
 * Written once each; a subject (a request, a breach) has a handful, so neither key is hot.
 */
export const documentItemType = 'LogDocument';

export interface DocumentInput {
  tenantId: string;
  /** What the document records, e.g. `rights.submitted`, `breach.board-report`. Part of the hashed text. */
  documentType: string;
  /** The request, breach, … it belongs to; its documents are listed by it. */
  subjectId: string;
  at: string;
  /** The facts, as plain JSON (no undefined, no functions). */
  content: Record<string, unknown>;
  /**
   * What the counters add when the log takes the document in (not hashed: the log's own
   * bookkeeping): a child's decision approved by the guardian is counted then (children/approval.ts).
   */
  counts?: { noticeId: string; grantedPurposes: string[]; day: string };
}

export interface LoggedDocument {
  tenantId: string;
  documentId: string;
  documentType: string;
  subjectId: string;
  at: string;
  /** The exact canonical JSON that was hashed. */
  canonical: string;
  /** SHA-256 (hex) of `canonical`: the leaf data of the document in the tenant's log. */
  hash: string;
}

const partition = (tenantId: string) => `EVIDENCE#${tenantId}`;

export const documentKeys = {
  document: (tenantId: string, documentId: string) => ({ PK: partition(tenantId), SK: `DOC#${documentId}` }),
  subjectPartition: (tenantId: string, subjectId: string) => `${partition(tenantId)}#${subjectId}`,
};

/** The hashed text: the document's identity and type are inside it, so it cannot pass for another one. */
export const canonicalDocument = (documentId: string, input: DocumentInput): string =>
  canonicalJson({
    kind: 'document',
    tenantId: input.tenantId,
    documentId,
    documentType: input.documentType,
    subjectId: input.subjectId,
    at: input.at,
    content: input.content,
  });

/**
 * The document as a transaction item, to be written with the change it records. Conditional on
 * its id being new, so a retried transaction can never replace what was logged.
 */
export const documentPut = (input: DocumentInput, documentId: string = newTimeOrderedId(new Date(input.at))): { document: LoggedDocument; item: NamedItem } => {
  const canonical = canonicalDocument(documentId, input);
  const document: LoggedDocument = { tenantId: input.tenantId, documentId, documentType: input.documentType, subjectId: input.subjectId, at: input.at, canonical, hash: sha256Hex(canonical) };
  return {
    document,
    item: named(`logged document ${input.documentType}`, {
      Put: {
        TableName: tableName(),
        Item: {
          ...documentKeys.document(input.tenantId, documentId),
          GSI2PK: documentKeys.subjectPartition(input.tenantId, input.subjectId),
          GSI2SK: documentId,
          type: documentItemType,
          ...document,
          ...(input.counts ? { counts: input.counts } : {}),
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    }),
  };
};

/** A stored document as its fields; what it says and what it hashes to are checked by the verifier, not here. */
export const documentOf = (item: Record<string, unknown>): LoggedDocument => ({
  tenantId: String(item.tenantId),
  documentId: String(item.documentId),
  documentType: String(item.documentType),
  subjectId: String(item.subjectId),
  at: String(item.at),
  canonical: String(item.canonical),
  hash: String(item.hash),
});

/** Why a stored document no longer stands for what the log committed to, if it does not. */
export const documentProblem = (item: Record<string, unknown>, committedHash: string): string | undefined => {
  const document = documentOf(item);
  if (sha256Hex(document.canonical) !== committedHash) return 'the document no longer hashes to the hash the log committed to: it was altered';
  if (document.hash !== committedHash) return 'the stored hash of the document differs from the one the log committed to';
  return undefined;
};

/** A subject's documents, oldest first (a subject has a bounded number: its filings and batches). */
export const documentsOf = async (tenantId: string, subjectId: string): Promise<LoggedDocument[]> =>
  (
    await queryAll({
      IndexName: 'GSI2',
      KeyConditionExpression: 'GSI2PK = :pk',
      ExpressionAttributeValues: { ':pk': documentKeys.subjectPartition(tenantId, subjectId) },
    })
  ).map(documentOf);
