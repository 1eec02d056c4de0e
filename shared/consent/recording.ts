import { clock } from '../clock';
import { tableName } from '../db/client';
import { AppError, ConflictError, NotFoundError, RateLimitError, ValidationError } from '../errors';
import { newEvent, outboxPut } from '../events/outbox';
import { newTimeOrderedId } from '../ids';
import { addCounters, named, tryTransaction, type NamedItem } from '../db/transact';
import { getActivePointer, getNotice, type ActivePointer } from '../notices/store';
import { requireTenant } from '../tenants/store';
import { consentKeys } from './keys';
import { proofHashOf } from './proof';
import { genesisHash, type ConsentRecord, type RecordChannel } from './record';
import { serialized } from './serialize';
import { counterNames, monthAttribute, principalRecords, readChainHead } from './store';

export interface RecordInput {
  tenantId: string;
  /** Omitted: the tenant's published notice. */
  noticeId?: string;
  dataPrincipalHash: string;
  externalId?: string;
  consentGiven: Record<string, boolean>;
  ipAddress: string;
  userAgent?: string;
  language: string;
  position: string;
  channel: RecordChannel;
  decision?: string;
  /** SDK records count against the tenant's monthly consent volume. */
  countsAgainstMonthlyLimit: boolean;
}

const maxAttempts = 25;

/** The notice the consent is given against: always the tenant's published one. */
const noticeFor = async (tenantId: string, noticeId: string | undefined): Promise<ActivePointer> => {
  const pointer = await getActivePointer(tenantId);
  if (noticeId && pointer?.noticeId !== noticeId) {
    if (!(await getNotice(tenantId, noticeId))) throw new NotFoundError('Notice');
    throw new ConflictError('Consent can only be recorded against the published notice; this one is not published');
  }
  if (!pointer) throw new ConflictError('The tenant has no published notice to record consent against');
  return pointer;
};

const checkDecision = (pointer: ActivePointer, input: RecordInput) => {
  const fields: Record<string, string> = {};
  const known = new Set(pointer.purposes.map((purpose) => purpose.id));
  const unknown = Object.keys(input.consentGiven).filter((id) => !known.has(id));
  if (unknown.length > 0) fields.consentGiven = `not purposes of notice version ${pointer.versionNumber}: ${unknown.join(', ')}`;
  if (Object.keys(input.consentGiven).length === 0) fields.consentGiven = 'at least one purpose decision is required';
  if (!pointer.textHashes[input.language]) {
    fields.language = `the notice is not available in ${input.language}; available: ${Object.keys(pointer.textHashes).join(', ')}`;
  }
  if (Object.keys(fields).length > 0) throw new ValidationError(fields);
};

const nextMonthStart = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));

/**
 * Appends a consent record to the tenant's hash chain. Each attempt reads the chain head and
 * writes, in one transaction: the head (conditional on the head it read, and on the monthly
 * volume), the record with its proof hash, the counters, the day's bucket and the
 * consent.recorded event. A lost race re-reads the head and tries again, so concurrent
 * writers never fork the chain; a crash leaves either all of it or none.
 */
export const recordConsent = async (input: RecordInput) => {
  const pointer = await noticeFor(input.tenantId, input.noticeId);
  checkDecision(pointer, input);
  const externalId = input.externalId ?? (await principalRecords(input.tenantId, input.dataPrincipalHash, 1))[0]?.externalId ?? null;
  const monthlyLimit = input.countsAgainstMonthlyLimit ? (await requireTenant(input.tenantId)).limits.monthlyConsentLimit : undefined;

  return serialized(`chain:${input.tenantId}`, async () => {
    for (let attempt = 1; attempt <= maxAttempts; attempt += 1) {
      const head = await readChainHead(input.tenantId);
      const now = clock.now();
      const month = monthAttribute(now);
      if (monthlyLimit !== undefined && (head.monthly[month] ?? 0) >= monthlyLimit) {
        throw new RateLimitError('MONTHLY_LIMIT_REACHED', (nextMonthStart(now).getTime() - now.getTime()) / 1000, 'Monthly consent volume reached; it resets on the 1st of next month (UTC)');
      }
      const record = buildRecord(input, pointer, externalId, head, now);
      const outcome = await tryTransaction(appendItems(record, head, month, monthlyLimit));
      if (outcome === 'ok') return { consentRecordId: record.recordId, proofHash: record.proofHash, status: 'recorded' as const };
      // Only the chain head may fail (another record got there first): anything else is a bug.
      if (outcome !== 'contended' && outcome.failed !== 'chain head') throw new AppError('INTERNAL_ERROR', 'Consent record could not be written', { cause: outcome });
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
    }
    throw new ConflictError('Too many concurrent consent writes for this tenant; retry');
  });
};

const buildRecord = (
  input: RecordInput,
  pointer: ActivePointer,
  externalId: string | null,
  head: Awaited<ReturnType<typeof readChainHead>>,
  now: Date,
): ConsentRecord => {
  const evidence = {
    tenantId: input.tenantId,
    recordId: newTimeOrderedId(now),
    noticeId: pointer.noticeId,
    noticeVersionNumber: pointer.versionNumber,
    noticeTextHash: pointer.textHashes[input.language]!,
    languageShown: input.language,
    positionShown: input.position,
    dataPrincipalHash: input.dataPrincipalHash,
    externalId,
    consentGiven: input.consentGiven,
    createdAt: now.toISOString(),
    ipAddress: input.ipAddress,
    userAgent: input.userAgent ?? null,
    chainSeq: head.seq + 1,
    prevProofHash: head.headHash ?? genesisHash,
  };
  return {
    ...evidence,
    proofHash: proofHashOf(evidence),
    noticeTitle: pointer.title,
    lineageId: pointer.lineageId,
    channel: input.channel,
    decision: input.decision ?? null,
    requiredPurposesDeclined: pointer.purposes.filter((purpose) => purpose.required && input.consentGiven[purpose.id] !== true).map((purpose) => purpose.id),
    prevRecordId: head.headRecordId,
    withdrawnPurposes: [],
    withdrawnAt: null,
    isWithdrawn: false,
    isPartiallyWithdrawn: false,
    withdrawalVersion: 0,
  };
};

const appendItems = (record: ConsentRecord, head: { seq: number }, month: string, monthlyLimit: number | undefined): NamedItem[] => {
  const { tenantId, recordId, createdAt } = record;
  const conditions = [head.seq === 0 ? 'attribute_not_exists(seq)' : 'seq = :previousSeq'];
  if (monthlyLimit !== undefined) conditions.push('(attribute_not_exists(#month) OR #month < :limit)');
  const given = Object.entries(record.consentGiven).filter(([, granted]) => granted).map(([purposeId]) => purposeId);
  return [
    named('chain head', {
      Update: {
        TableName: tableName(),
        Key: consentKeys.chainHead(tenantId),
        UpdateExpression: 'SET seq = :seq, headHash = :hash, headRecordId = :record ADD #month :one',
        ConditionExpression: conditions.join(' AND '),
        ExpressionAttributeNames: { '#month': month },
        ExpressionAttributeValues: {
          ':seq': record.chainSeq,
          ':hash': record.proofHash,
          ':record': recordId,
          ':one': 1,
          ...(head.seq === 0 ? {} : { ':previousSeq': head.seq }),
          ...(monthlyLimit === undefined ? {} : { ':limit': monthlyLimit }),
        },
      },
    }),
    named('record', {
      Put: {
        TableName: tableName(),
        Item: {
          ...consentKeys.record(tenantId, recordId),
          ...consentKeys.principal(tenantId, record.dataPrincipalHash, createdAt, recordId),
          ...consentKeys.status(tenantId, 'active', createdAt, recordId),
          ...(record.externalId ? consentKeys.external(tenantId, record.externalId, createdAt, recordId) : {}),
          ...consentKeys.chain(tenantId, record.chainSeq),
          type: 'ConsentRecord',
          ...record,
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    }),
    named('counters', addCounters(consentKeys.stats(tenantId), {
      total: 1,
      active: 1,
      [counterNames.noticeConsents(record.noticeId)]: 1,
      ...Object.fromEntries(given.map((purposeId) => [counterNames.purposeGiven(purposeId), 1])),
    })),
    named('daily counters', addCounters(consentKeys.daily(tenantId, createdAt.slice(0, 10)), { given: 1 })),
    named('event', outboxPut(
      newEvent(tenantId, 'consent.recorded', {
        consentRecordId: recordId,
        dataPrincipalHash: record.dataPrincipalHash,
        consents: record.consentGiven,
        noticeId: record.noticeId,
        noticeVersionId: `${record.noticeId}:${record.noticeVersionNumber}`,
        noticeVersionNumber: record.noticeVersionNumber,
        recordedAt: createdAt,
      }),
    )),
  ];
};
