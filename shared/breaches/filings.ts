import { GetCommand } from '../db/commands';
import { clock } from '../clock';
import { db, tableName } from '../db/client';
import { writeTransaction } from '../db/transact';
import { ConflictError, ValidationError } from '../errors';
import { documentKeys } from '../evidence/documents';
import { newEvent, outboxPut } from '../events/outbox';
import { requireTenant } from '../tenants/store';
import { getNotice } from '../notices/store';
import { getPurposes } from '../purposes/store';
import { dpoContactOf } from '../notices/dpo-contact';
import { boardDocumentModel } from './board-document';
import { boardDocument, filingTimes, missingItems, type Actor, type Breach, type Filing } from './breach';
import { actorOf, assetsOf, breachDocument, handoffOf, requireOpen, type Caller } from './service';
import { requireBreach, versionedChange } from './store';
import type { FilingStage } from './schemas';

/**
 * Filing with the Data Protection Board: the intimation (Rule 7(2)(a)) and the detailed report
 * (Rule 7(2)(b)). A stage is filed only when nothing it needs is missing; the document is then
 * frozen into the tenant's evidence log in the same transaction that records `filedAt` and `late`
 * and emits `breach.reported`, and a stage is filed once.
 */

const documentTypeOf: Record<FilingStage, string> = { INTIMATION: 'board-intimation', DETAILED_REPORT: 'board-report' };
const stageName: Record<FilingStage, string> = { INTIMATION: 'Board intimation', DETAILED_REPORT: 'detailed report' };

const fiduciaryOf = async (tenantId: string) => ({ tenantId, name: (await requireTenant(tenantId)).name });

export const fileWithBoard = async (caller: Caller, breachId: string, stage: FilingStage) => {
  const breach = await requireBreach(caller.tenantId, breachId, true);
  requireOpen(breach);
  if (breach.filings[stage]) throw new ConflictError(`The ${stageName[stage]} was filed at ${breach.filings[stage].filedAt}; a filing is never replaced`);
  const missing = missingItems(breach, stage);
  if (Object.keys(missing).length > 0) throw new ValidationError(missing, `The ${stageName[stage]} cannot be filed: items are missing`);
  const filedAt = clock.now().toISOString();
  const times = filingTimes(breach, stage, filedAt);
  const document = boardDocument(breach, stage, await fiduciaryOf(caller.tenantId), await assetsOf(breach));
  const by = await actorOf(caller);
  const logged = breachDocument(breach, documentTypeOf[stage], filedAt, by, { stage, filedAt, late: times.late, dueAt: times.dueAt }, { filing: { stage, filedAt, ...times }, document });
  const filing: Filing = { filedAt, ...times, documentId: logged.document.documentId };
  const event = newEvent(caller.tenantId, 'breach.reported', { breachId, stage, filedAt, late: times.late });
  await writeTransaction([versionedChange(breach, { filings: { ...breach.filings, [stage]: filing } }, filedAt), logged.item, { name: 'breach.reported event', item: outboxPut(event) }]);
  return { breachId, stage, filed: true, filedAt, late: times.late, documentId: filing.documentId, missing: {}, document };
};

/** The frozen document of a filed stage, read back from the evidence log: what was filed, byte for byte, and who filed it. */
const filedDocument = async (tenantId: string, filing: Filing) => {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: documentKeys.document(tenantId, filing.documentId), ConsistentRead: true }));
  if (!Item) throw new ConflictError('The filed document is missing from the evidence log; run GET /consent/proof-chain/verify');
  return (JSON.parse(String(Item.canonical)) as { content: { document: Record<string, unknown>; by?: Actor | null } }).content;
};

const filingOf = async (tenantId: string, breachId: string, stage: FilingStage) => {
  const breach: Breach = await requireBreach(tenantId, breachId);
  const filing = breach.filings[stage];
  if (filing) {
    const filed = await filedDocument(tenantId, filing);
    return { breach, view: { breachId, stage, filed: true, filedAt: filing.filedAt, late: filing.late, documentId: filing.documentId, missing: {}, document: filed.document }, filedBy: filed.by ?? null };
  }
  const document = boardDocument(breach, stage, await fiduciaryOf(tenantId), await assetsOf(breach));
  return { breach, view: { breachId, stage, filed: false, filedAt: null, late: null, documentId: null, missing: { ...missingItems(breach, stage) }, document }, filedBy: null };
};

/** A stage as filed, or, before filing, a preview of what would be filed now with what it still lacks. */
export const boardFiling = async (tenantId: string, breachId: string, stage: FilingStage) => (await filingOf(tenantId, breachId, stage)).view;

/**
 * The same filing as a document (board-document.ts): what it names by id written as the tenant's
 * names for them now, the DPO's contact, who filed it, and whether the tenant's systems can be
 * told of principals without an email.
 */
export const boardFilingDocument = async (tenantId: string, breachId: string, stage: FilingStage) => {
  const { breach, view, filedBy } = await filingOf(tenantId, breachId, stage);
  const document = view.document as { affected?: unknown; items?: { vi?: { affected?: unknown } } };
  const affected = (document.affected ?? document.items?.vi?.affected ?? {}) as { noticeIds?: string[]; purposeIds?: string[] };
  const tenant = await requireTenant(tenantId);
  const [notices, purposes, dpoContact, handoff] = await Promise.all([
    Promise.all((affected.noticeIds ?? breach.affected.noticeIds).map(async (id) => [id, (await getNotice(tenantId, id))?.title] as const)),
    getPurposes(tenantId, affected.purposeIds ?? breach.affected.purposeIds),
    dpoContactOf(tenant),
    handoffOf(tenantId),
  ]);
  return boardDocumentModel(
    { ...view, filedBy },
    {
      tenant,
      dpoContact,
      noticeTitles: new Map(notices.filter((entry): entry is readonly [string, string] => typeof entry[1] === 'string')),
      purposeNames: new Map(purposes.map((purpose) => [purpose.purposeId, purpose.name])),
      webhookSubscribed: handoff.webhookSubscribed,
    },
  );
};
