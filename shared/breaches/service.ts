import { clock, nowIso } from '../clock';
import { sha256Hex } from '../crypto/hash';
import { writeTransaction, type NamedItem } from '../db/transact';
import { ConflictError, ValidationError } from '../errors';
import { documentPut, documentsOf } from '../evidence/documents';
import { newEvent, outboxPut } from '../events/outbox';
import { newTimeOrderedId } from '../ids';
import { getAssets } from '../data-map/store';
import { getNotice } from '../notices/store';
import { getPurposes } from '../purposes/store';
import { getUser } from '../users/store';
import { listWebhooks } from '../webhooks/store';
import { detailView, dueTimes, isOverdue, summaryView, type Actor, type AssetRef, type Breach, type Handoff } from './breach';
import { breachPut, chunkPut, listBreaches, requireBreach, versionedChange } from './store';
import type { BreachChanges, CreateBreachInput } from './schemas';

/**
 * The register's own operations: record a breach, change it (every change kept), list and read
 * it with both clocks and its timeline, add listed principals, record the Board's extension,
 * close it. Filings live in filings.ts, the intimation of principals in intimation.ts.
 */

export interface Caller {
  tenantId: string;
  userId: string;
  role: string;
}

/** Whether an active webhook of the tenant takes breach.principals (a tenant has a handful of webhooks: one range read). */
export const handoffOf = async (tenantId: string): Promise<Handoff> => ({
  webhookSubscribed: (await listWebhooks(tenantId)).some((webhook) => webhook.isActive && webhook.events.includes('breach.principals')),
});

/** Listed hashes are stored in chunks of this many (≤ 10 per call, so a call stays one transaction). */
export const chunkSize = 1000;

/** Who acted, as the timeline shows it: the user's email as it was then (a removed user keeps being named). */
export const actorOf = async (caller: Caller): Promise<Actor> => ({
  userId: caller.userId,
  role: caller.role,
  email: (await getUser(caller.tenantId, caller.userId))?.email ?? null,
});

/**
 * A logged document of the breach (shared/evidence/documents.ts): one per change, in the change's
 * own transaction, so the timeline is the tenant's evidence log and verifies like consent.
 * `details` is what the timeline shows of it.
 */
export const breachDocument = (breach: Pick<Breach, 'tenantId' | 'breachId'>, action: string, at: string, by: Actor | null, details: Record<string, unknown>, rest: Record<string, unknown> = {}) =>
  documentPut({ tenantId: breach.tenantId, documentType: `breach.${action}`, subjectId: breach.breachId, at, content: { by, details, ...rest } });

const fail = (fields: Record<string, string>) => {
  if (Object.keys(fields).length > 0) throw new ValidationError(fields);
};

/** Times a breach states must be possible: awareness not in the future, occurrence not after it. */
const checkTimes = (awareAt: string, occurredAt: string | null, now: Date) => {
  const fields: Record<string, string> = {};
  if (Date.parse(awareAt) > now.getTime()) fields.awareAt = 'must not be in the future';
  if (occurredAt && Date.parse(occurredAt) > Date.parse(awareAt)) fields.occurredAt = 'must not be after awareAt: a breach is known only once it happened';
  fail(fields);
};

/** The notices and purposes a scope names must be the tenant's own. */
const checkAffected = async (tenantId: string, affected: { noticeIds?: string[] | undefined; purposeIds?: string[] | undefined; scope: string; principalHashes?: string[] | undefined }) => {
  const fields: Record<string, string> = {};
  const required = { NOTICES: 'noticeIds', PURPOSES: 'purposeIds', PRINCIPALS: 'principalHashes' } as const;
  const needed = required[affected.scope as keyof typeof required];
  if (needed && needed !== 'principalHashes' && !affected[needed]) fields[`affected.${needed}`] = `required with scope ${affected.scope}`;
  const noticeIds = [...new Set(affected.noticeIds ?? [])];
  const unknownNotices = (await Promise.all(noticeIds.map(async (id) => ((await getNotice(tenantId, id)) ? undefined : id)))).filter(Boolean);
  if (unknownNotices.length > 0) fields['affected.noticeIds'] = `not notices of this tenant: ${unknownNotices.join(', ')}`;
  const purposeIds = [...new Set(affected.purposeIds ?? [])];
  const known = new Set((await getPurposes(tenantId, purposeIds)).map((purpose) => purpose.purposeId));
  const unknownPurposes = purposeIds.filter((id) => !known.has(id));
  if (unknownPurposes.length > 0) fields['affected.purposeIds'] = `not purposes of this tenant: ${unknownPurposes.join(', ')}`;
  fail(fields);
  return { scope: affected.scope as Breach['affected']['scope'], noticeIds, purposeIds };
};

/** The data map assets a breach names must be the tenant's own. */
const checkAssets = async (tenantId: string, assetIds: readonly string[] | undefined): Promise<string[] | undefined> => {
  if (assetIds === undefined) return undefined;
  const unique = [...new Set(assetIds)];
  const known = new Set((await getAssets(tenantId, unique)).map((asset) => asset.assetId));
  const unknown = unique.filter((id) => !known.has(id));
  fail(unknown.length > 0 ? { assetIds: `not data map assets of this tenant: ${unknown.join(', ')}` } : {});
  return unique;
};

/** The assets a breach names, as the data map names them now; one deleted since keeps its id with empty names. */
export const assetsOf = async (breach: Pick<Breach, 'tenantId' | 'assetIds'>): Promise<AssetRef[]> => {
  const ids = breach.assetIds ?? [];
  const found = new Map((await getAssets(breach.tenantId, ids)).map((asset) => [asset.assetId, asset]));
  return ids.map((assetId) => {
    const asset = found.get(assetId);
    return { assetId, name: asset?.name ?? '', system: asset?.system ?? '', location: asset?.location ?? '' };
  });
};

/** Listed hashes as chunk items, numbered on from `firstChunk`, and the evidence of what was listed (never the list itself in the log). */
const listedChunks = (tenantId: string, breachId: string, hashes: string[], firstChunk: number) => {
  const unique = [...new Set(hashes)];
  const items: NamedItem[] = [];
  for (let at = 0; at < unique.length; at += chunkSize) items.push(chunkPut(tenantId, breachId, firstChunk + items.length, unique.slice(at, at + chunkSize)));
  return { items, count: unique.length, digest: sha256Hex([...unique].sort().join('\n')) };
};

const emptyIntimation: Breach['intimation'] = { status: 'NOT_STARTED', runId: null, runs: 0, startedAt: null, finishedAt: null, textDocumentId: null, resolved: false, batchesPlanned: 0, batchesDone: 0, lastProgressAt: null };

export const createBreach = async (caller: Caller, input: CreateBreachInput) => {
  const now = clock.now();
  checkTimes(input.awareAt, input.occurredAt ?? null, now);
  const affected = await checkAffected(caller.tenantId, input.affected);
  const assetIds = (await checkAssets(caller.tenantId, input.assetIds)) ?? [];
  const at = now.toISOString();
  const breachId = newTimeOrderedId(now);
  const listed = listedChunks(caller.tenantId, breachId, input.affected.principalHashes ?? [], 0);
  const breach: Breach = {
    tenantId: caller.tenantId,
    breachId,
    title: input.title,
    status: 'OPEN',
    awareAt: input.awareAt,
    occurredAt: input.occurredAt ?? null,
    nature: input.nature,
    extent: input.extent,
    location: input.location,
    likelyImpact: input.likelyImpact,
    dataCategories: input.dataCategories,
    assetIds,
    affected,
    listedPrincipals: listed.count,
    listedChunks: listed.items.length,
    factsAndReasons: null,
    mitigationMeasures: null,
    causeFindings: null,
    remedialMeasures: null,
    extension: null,
    filings: {},
    intimation: emptyIntimation,
    progress: { total: 0, mailed: 0, viaTenant: 0, awaitingTenant: 0, failed: 0 },
    createdAt: at,
    updatedAt: at,
    closedAt: null,
    version: 1,
  };
  const { tenantId: _tenant, filings: _filings, intimation: _intimation, progress: _progress, version: _version, ...described } = breach;
  const document = breachDocument(breach, 'created', at, await actorOf(caller), { title: breach.title, awareAt: breach.awareAt, scope: affected.scope, listedPrincipals: listed.count }, {
    breach: described,
    listedPrincipalsDigest: listed.digest,
  });
  const event = newEvent(caller.tenantId, 'breach.created', {
    breachId,
    title: breach.title,
    awareAt: breach.awareAt,
    occurredAt: breach.occurredAt,
    ...dueTimes(breach),
    affectedScope: affected.scope,
    dataCategories: breach.dataCategories,
  });
  await writeTransaction([breachPut(breach), ...listed.items, document.item, { name: 'breach.created event', item: outboxPut(event) }]);
  return summaryView(breach, now, await handoffOf(caller.tenantId));
};

export const listTenantBreaches = async (tenantId: string, filter: { status?: Breach['status'] | undefined; overdue?: boolean | undefined }) => {
  const now = clock.now();
  const [breaches, handoff] = await Promise.all([listBreaches(tenantId), handoffOf(tenantId)]);
  return breaches
    .filter((breach) => !filter.status || breach.status === filter.status)
    .filter((breach) => filter.overdue === undefined || isOverdue(breach, now) === filter.overdue)
    .map((breach) => summaryView(breach, now, handoff));
};

/** The timeline: the breach's logged documents, oldest first, as who did what when. */
const timelineOf = async (breach: Breach) =>
  (await documentsOf(breach.tenantId, breach.breachId)).map((document) => {
    const content = (JSON.parse(document.canonical) as { content: { by?: Actor | null; details?: Record<string, unknown> } }).content;
    return { at: document.at, action: document.documentType.replace(/^breach\./, ''), by: content.by ?? null, details: content.details ?? {}, documentId: document.documentId };
  });

export const breachDetail = async (tenantId: string, breachId: string, consistent = false) => {
  const breach = await requireBreach(tenantId, breachId, consistent);
  const [timeline, assets, handoff] = await Promise.all([timelineOf(breach), assetsOf(breach), handoffOf(tenantId)]);
  return detailView(breach, timeline, clock.now(), assets, handoff);
};

/** Refuses a change to a closed breach. */
export const requireOpen = (breach: Breach) => {
  if (breach.status === 'CLOSED') throw new ConflictError('The breach is closed; it can no longer change');
};

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * A partial change. Every field that really changes is kept in the timeline with what it was and
 * what it became, in the transaction of the change, so nothing is overwritten silently.
 */
export const updateBreach = async (caller: Caller, breachId: string, input: BreachChanges) => {
  const breach = await requireBreach(caller.tenantId, breachId, true);
  requireOpen(breach);
  const now = clock.now();
  const next: Partial<Breach> = Object.fromEntries(Object.entries(input).filter(([name]) => name !== 'affected'));
  if (input.affected) {
    if (breach.intimation.status === 'RUNNING') throw new ConflictError('The affected principals cannot change while they are being intimated');
    next.affected = await checkAffected(caller.tenantId, input.affected);
  }
  if (input.assetIds !== undefined) next.assetIds = await checkAssets(caller.tenantId, input.assetIds);
  checkTimes(next.awareAt ?? breach.awareAt, next.occurredAt === undefined ? breach.occurredAt : next.occurredAt, now);
  const changes = Object.fromEntries(
    Object.entries(next)
      .filter(([name, value]) => !same(breach[name as keyof Breach], value))
      .map(([name, value]) => [name, { from: breach[name as keyof Breach] ?? null, to: value }]),
  );
  if (Object.keys(changes).length === 0) return breachDetail(caller.tenantId, breachId, true);
  const at = now.toISOString();
  const set = Object.fromEntries(Object.entries(changes).map(([name, change]) => [name, change.to]));
  const document = breachDocument(breach, 'updated', at, await actorOf(caller), changes);
  await writeTransaction([versionedChange(breach, set, at), document.item]);
  return breachDetail(caller.tenantId, breachId, true);
};

/** More listed principals (scope PRINCIPALS), at most 10,000 a call; those already listed are skipped when intimated. */
export const addPrincipals = async (caller: Caller, breachId: string, principalHashes: string[]) => {
  const breach = await requireBreach(caller.tenantId, breachId, true);
  requireOpen(breach);
  if (breach.affected.scope !== 'PRINCIPALS') throw new ConflictError(`The breach affects ${breach.affected.scope === 'ALL' ? 'every principal' : `the principals of its ${breach.affected.scope.toLowerCase()}`}; change its scope to PRINCIPALS to list principals`);
  const at = nowIso();
  const listed = listedChunks(caller.tenantId, breachId, principalHashes, breach.listedChunks);
  const document = breachDocument(breach, 'principals-listed', at, await actorOf(caller), { count: listed.count }, { listedPrincipalsDigest: listed.digest });
  await writeTransaction([
    versionedChange(breach, { listedPrincipals: breach.listedPrincipals + listed.count, listedChunks: breach.listedChunks + listed.items.length }, at),
    ...listed.items,
    document.item,
  ]);
  return breachDetail(caller.tenantId, breachId, true);
};

/** The Board allowed longer for the detailed report: its due time moves, and the timeline says so. */
export const extendBreach = async (caller: Caller, breachId: string, input: { grantedUntil: string; reference: string }) => {
  const breach = await requireBreach(caller.tenantId, breachId, true);
  requireOpen(breach);
  if (breach.filings.DETAILED_REPORT) throw new ConflictError('The detailed report is filed already; there is nothing to extend');
  const due = dueTimes(breach).detailedReportDueAt;
  if (Date.parse(input.grantedUntil) <= Date.parse(due)) throw new ValidationError({ grantedUntil: `must be later than the report's current due time, ${due}` });
  const at = nowIso();
  const extension = { grantedUntil: input.grantedUntil, reference: input.reference, at };
  const document = breachDocument(breach, 'extension', at, await actorOf(caller), { previousDueAt: due, grantedUntil: input.grantedUntil, reference: input.reference });
  await writeTransaction([versionedChange(breach, { extension }, at), document.item]);
  return breachDetail(caller.tenantId, breachId, true);
};

/** Closed once its detailed report is filed and no intimation runs; nothing changes after. */
export const closeBreach = async (caller: Caller, breachId: string) => {
  const breach = await requireBreach(caller.tenantId, breachId, true);
  requireOpen(breach);
  if (!breach.filings.DETAILED_REPORT) throw new ConflictError('File the detailed report before closing the breach');
  if (breach.intimation.status === 'RUNNING') throw new ConflictError('The intimation of the affected principals is still running');
  const at = nowIso();
  const document = breachDocument(breach, 'closed', at, await actorOf(caller), {});
  await writeTransaction([versionedChange(breach, { status: 'CLOSED', closedAt: at }, at), document.item]);
  return breachDetail(caller.tenantId, breachId, true);
};
