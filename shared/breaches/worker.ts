import { GetCommand, PutCommand } from '../db/commands';
import { nowIso } from '../clock';
import { deliveryConfig, engineConfig } from '../config';
import { openContact, principalContact } from '../consent/contact';
import { principalPage } from '../consent/principal-pages';
import { db, tableName } from '../db/client';
import { writtenUnlessRaced } from '../db/errors';
import { tryTransaction, type TransactItem } from '../db/transact';
import { documentKeys, documentPut } from '../evidence/documents';
import { eventIdFor, newEvent, outboxPut } from '../events/outbox';
import type { LanguageCode } from '../i18n/languages';
import { describeError, log } from '../log';
import { mailPut } from '../mail/outbox';
import { sendToQueue } from '../queue/sqs';
import { requireTenant } from '../tenants/store';
import type { Breach, Progress } from './breach';
import { breachKeys } from './keys';
import { intimationMail, intimationMailId, mailLanguage } from './mail';
import type { IntimationText } from './schemas';
import { applyChange, batchProgress, claimPrincipal, getBreach, getChunk, getPage, pageCompletion, putPage, runChange, runPages, type Page, type PageCursor } from './store';

/**
 * The intimation of a breach's affected principals, driven by the breach-intimations queue so
 * that no invocation does more than one page: 100,000 principals are 200 short steps.
 *
 * - `resolve` (one page): reads the next page of candidates (a page of the tenant's consent
 *   records, filtered by the breach's scope, or a slice of the listed hashes), writes it as the
 *   run's page item (once: a page seen again is recognised by its key), queues its batch and the
 *   next page's resolution; the last page records how many batches the run planned.
 * - `batch` (one page's principals): claims each principal with a conditional marker (a retry of
 *   the same batch re-claims its own; any other batch, of this run or an earlier one, is refused),
 *   looks up her latest consent's language and her sealed email, queues her mail in the outbox
 *   under an id derived from breach and principal (a retry cannot queue it twice), hands those with
 *   no email to the tenant as one `breach.principals` event (its id derived from the page; they count
 *   as reached only once a subscribed webhook acknowledges it, acknowledgement.ts), and
 *   completes in one transaction: the page, the breach's counters and the batch's logged document.
 * The run is DONE once resolution reached the end and every planned batch completed.
 */

export type IntimationMessage =
  | { kind: 'resolve'; tenantId: string; breachId: string; runId: string; page: number; cursor: PageCursor; batchesBefore: number }
  | { kind: 'batch'; tenantId: string; breachId: string; runId: string; page: number };

const queueUrl = (): string => {
  const url = engineConfig.breachQueueUrl;
  if (!url) throw new Error('BREACH_QUEUE_URL is not configured');
  return url;
};

export const enqueue = (message: IntimationMessage) => sendToQueue(queueUrl(), message);

type Ids = Pick<Page, 'tenantId' | 'breachId' | 'runId'>;

/** `items` mapped `width` at a time: a batch's hundreds of lookups and writes, without flooding the table. */
const mapLimit = async <T, R>(items: readonly T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> => {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
  return results;
};

const listedCursor = (cursor: PageCursor) => (cursor && typeof cursor === 'object' ? (cursor as { chunk: number; offset: number }) : { chunk: 0, offset: 0 });

/** One page of candidates, and where the next starts. */
const candidates = async (breach: Breach, cursor: PageCursor): Promise<{ hashes: string[]; next: PageCursor }> => {
  const size = deliveryConfig.breachBatchSize;
  if (breach.affected.scope === 'PRINCIPALS') {
    const at = listedCursor(cursor);
    if (at.chunk >= breach.listedChunks) return { hashes: [], next: null };
    const chunk = (await getChunk(breach.tenantId, breach.breachId, at.chunk)) ?? [];
    const end = at.offset + size;
    const next = end < chunk.length ? { chunk: at.chunk, offset: end } : at.chunk + 1 < breach.listedChunks ? { chunk: at.chunk + 1, offset: 0 } : null;
    return { hashes: chunk.slice(at.offset, end), next };
  }
  const filter = breach.affected.scope === 'NOTICES' ? { noticeIds: breach.affected.noticeIds } : breach.affected.scope === 'PURPOSES' ? { purposeIds: breach.affected.purposeIds } : {};
  return principalPage(breach.tenantId, filter, size, (cursor ?? undefined) as Record<string, unknown> | undefined);
};

const currentRun = async (ids: Ids) => {
  const breach = await getBreach(ids.tenantId, ids.breachId, true);
  return breach && breach.intimation.status === 'RUNNING' && breach.intimation.runId === ids.runId ? breach : undefined;
};

/**
 * A transaction on the breach item, retried while other writes of it (other batches' completions,
 * a user's change) cancel it; a failed condition is an answer, not a reason to retry.
 */
const untilUncontended = async (items: Parameters<typeof tryTransaction>[0]) => {
  for (let attempt = 0; attempt < 12; attempt += 1) {
    if ((await tryTransaction(items)) !== 'contended') return;
    await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 40 * (attempt + 1)));
  }
  throw new Error('the breach kept being changed by others; the message will come back');
};

/**
 * Closes the run when resolution has finished and every planned batch completed, with a logged
 * document of its totals. Any step may call it: the condition lets exactly one close it.
 */
export const finishRun = async (ids: Ids): Promise<void> => {
  const breach = await currentRun(ids);
  const run = breach?.intimation;
  if (!breach || !run?.resolved || run.batchesDone < run.batchesPlanned) return;
  const at = nowIso();
  const document = documentPut({ tenantId: ids.tenantId, documentType: 'breach.intimation-completed', subjectId: ids.breachId, at, content: { by: null, details: { runId: ids.runId, ...breach.progress, batches: run.batchesDone } } });
  const change = runChange(breach, ids.runId, {
    set: { 'intimation.status': 'DONE', 'intimation.finishedAt': at },
    condition: '#intimation.#status = :running AND #intimation.#resolved = :resolved AND #intimation.#batchesDone = #intimation.#batchesPlanned',
    values: { ':running': 'RUNNING', ':resolved': true },
  });
  await untilUncontended([change, document.item]);
};

/** After a page is written (or found written): its batch and the next page are queued, or the run's plan is complete. */
const afterPage = async (page: Page) => {
  if (page.state === 'PLANNED') await enqueue({ kind: 'batch', tenantId: page.tenantId, breachId: page.breachId, runId: page.runId, page: page.page });
  const touch = { 'intimation.lastProgressAt': nowIso() };
  if (page.next !== null) {
    // Seen again after the next page was resolved: that chain goes on without this copy.
    if (!(await getPage(page.tenantId, page.breachId, page.runId, page.page + 1))) {
      await enqueue({ kind: 'resolve', tenantId: page.tenantId, breachId: page.breachId, runId: page.runId, page: page.page + 1, cursor: page.next, batchesBefore: page.batchesSoFar });
    }
    await applyChange(runChange(page, page.runId, { set: touch }));
    return;
  }
  await applyChange(runChange(page, page.runId, { set: { ...touch, 'intimation.resolved': true, 'intimation.batchesPlanned': page.batchesSoFar } }));
  await finishRun(page);
};

export const resolvePage = async (message: Extract<IntimationMessage, { kind: 'resolve' }>): Promise<void> => {
  const breach = await currentRun(message);
  if (!breach) return;
  let page = await getPage(message.tenantId, message.breachId, message.runId, message.page);
  if (!page) {
    const found = await candidates(breach, message.cursor);
    const fresh: Page = {
      tenantId: message.tenantId,
      breachId: message.breachId,
      runId: message.runId,
      page: message.page,
      cursor: message.cursor,
      hashes: found.hashes,
      next: found.next,
      batchesSoFar: message.batchesBefore + (found.hashes.length > 0 ? 1 : 0),
      state: found.hashes.length > 0 ? 'PLANNED' : 'COMPLETE',
      createdAt: nowIso(),
    };
    page = (await putPage(fresh)) ? fresh : await getPage(message.tenantId, message.breachId, message.runId, message.page);
  }
  if (page) await afterPage(page);
};

/** The words of the run (its logged document), as every principal of it is told them. */
const runText = async (breach: Breach): Promise<IntimationText> => {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: documentKeys.document(breach.tenantId, String(breach.intimation.textDocumentId)), ConsistentRead: true }));
  if (!Item) throw new Error(`intimation text ${breach.intimation.textDocumentId} of breach ${breach.breachId} is missing`);
  return (JSON.parse(String(Item.canonical)) as { content: { text: IntimationText } }).content.text;
};

type Outcome = { hash: string; via: 'mail'; email: string; language: LanguageCode } | { hash: string; via: 'tenant' | 'failed' };

/** How one claimed principal is reached; a contact that cannot be read fails her alone, never the batch. */
const outcomeOf = async (breach: Breach, text: IntimationText, hash: string): Promise<Outcome> => {
  try {
    const contact = await principalContact(breach.tenantId, hash);
    if (!contact.sealed) return { hash, via: 'tenant' };
    return { hash, via: 'mail', email: openContact(contact.sealed, hash), language: mailLanguage(contact.language, text) };
  } catch (error) {
    // Names the breach and the error only: never the principal's email, nor her hash in a log line.
    log.warn('a principal of a breach intimation could not be prepared; counted as failed', { breachId: breach.breachId, ...describeError(error) });
    return { hash, via: 'failed' };
  }
};

/** Writes an outbox item once: a second write of the same id (a retried batch) changes nothing. */
const putOnce = (item: TransactItem) => writtenUnlessRaced(() => db().send(new PutCommand(item.Put!)));

const width = 16;

export const intimateBatch = async (message: Extract<IntimationMessage, { kind: 'batch' }>): Promise<void> => {
  const page = await getPage(message.tenantId, message.breachId, message.runId, message.page);
  if (!page || page.state !== 'PLANNED') return;
  const breach = await currentRun(message);
  if (!breach) return;
  const [text, tenant] = await Promise.all([runText(breach), requireTenant(breach.tenantId)]);
  const at = nowIso();
  const claim = { runId: page.runId, page: page.page, at };
  const claimed = (await mapLimit(page.hashes, width, async (hash) => ((await claimPrincipal(breach.tenantId, breach.breachId, hash, claim)) ? hash : undefined))).filter((hash): hash is string => hash !== undefined);
  const outcomes = await mapLimit(claimed, width, (hash) => outcomeOf(breach, text, hash));
  const mailed = outcomes.filter((outcome): outcome is Extract<Outcome, { via: 'mail' }> => outcome.via === 'mail');
  const viaTenant = outcomes.filter((outcome) => outcome.via === 'tenant').map((outcome) => outcome.hash);
  const failed = outcomes.filter((outcome) => outcome.via === 'failed').map((outcome) => outcome.hash);
  await mapLimit(mailed, width, (outcome) =>
    putOnce(mailPut(breach.tenantId, intimationMail(outcome.email, tenant, breach, text, outcome.language), intimationMailId(breach.breachId, outcome.hash))),
  );
  const eventId = eventIdFor('breach.principals', `${page.runId}:${page.page}`);
  if (viaTenant.length > 0) {
    await putOnce(outboxPut(newEvent(breach.tenantId, 'breach.principals', { breachId: breach.breachId, runId: page.runId, page: page.page, principalHashes: viaTenant }, { id: eventId })));
  }
  // Handed to the tenant is not reached: counted so until its systems acknowledge the page (acknowledgement.ts).
  const counts: Progress = { total: claimed.length, mailed: mailed.length, viaTenant: 0, awaitingTenant: viaTenant.length, failed: failed.length };
  const document = documentPut({
    tenantId: breach.tenantId,
    documentType: 'breach.intimation-batch',
    subjectId: breachKeys.batchSubject(breach.breachId),
    at,
    content: {
      runId: page.runId,
      page: page.page,
      textDocumentId: breach.intimation.textDocumentId,
      mailed: mailed.map((outcome) => ({ principalHash: outcome.hash, language: outcome.language })),
      viaTenant: viaTenant.length > 0 ? { principalHashes: viaTenant, eventId } : null,
      failed,
      counts,
    },
  });
  // A second completion of the page is refused by its condition: nothing is counted twice.
  await untilUncontended([pageCompletion(page, counts, at), batchProgress(breach, page.runId, counts, at), document.item]);
  await finishRun(page);
};

export const processIntimationMessage = (message: IntimationMessage): Promise<void> => (message.kind === 'resolve' ? resolvePage(message) : intimateBatch(message));

/**
 * Queues a stalled run's work again (a message lost: the local queue emulator restarted, or one
 * waiting in the DLQ): every planned batch not completed, and the resolution from its last page.
 * Each step is idempotent, so work that was only slow is done once all the same.
 */
export const resumeRun = async (breach: Breach): Promise<void> => {
  const ids = { tenantId: breach.tenantId, breachId: breach.breachId, runId: String(breach.intimation.runId) };
  const pages = await runPages(ids.tenantId, ids.breachId, ids.runId);
  for (const page of pages.filter((candidate) => candidate.state === 'PLANNED')) await enqueue({ kind: 'batch', ...ids, page: page.page });
  if (!breach.intimation.resolved) {
    // The last page written is seen again: the resolution goes on from where it left off.
    const last = pages.at(-1);
    await enqueue(
      last
        ? { kind: 'resolve', ...ids, page: last.page, cursor: last.cursor, batchesBefore: last.batchesSoFar - (last.hashes.length > 0 ? 1 : 0) }
        : { kind: 'resolve', ...ids, page: 0, cursor: null, batchesBefore: 0 },
    );
  }
  await applyChange(runChange(breach, ids.runId, { set: { 'intimation.lastProgressAt': nowIso() } }));
  await finishRun(ids);
};
