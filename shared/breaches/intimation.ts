import { clock } from '../clock';
import { deliveryConfig } from '../config';
import { writeTransaction } from '../db/transact';
import { ConflictError, ValidationError } from '../errors';
import { newTimeOrderedId } from '../ids';
import { progressOf, type Breach } from './breach';
import type { LanguageCode } from '../i18n/languages';
import { requireTenant } from '../tenants/store';
import { intimationMail, mailLanguage } from './mail';
import { withTenantLabels } from './run-labels';
import type { IntimationText } from './schemas';
import { actorOf, breachDocument, requireOpen, type Caller } from './service';
import { requireBreach, versionedChange } from './store';
import { enqueue, resumeRun } from './worker';

/**
 * `POST /breaches/:id/principal-intimation`: starts a run that intimates every affected principal
 * not reached before (shared/breaches/worker.ts does the work, page by page, from the queue).
 * The words are logged first, with the run, so the evidence log holds exactly what every
 * principal of the run was told.
 */

/** The words of a run are one logged document, and a DynamoDB item holds at most 400 KB. */
const maxTextBytes = 300_000;

const stalled = (breach: Breach, now: Date) =>
  now.getTime() - Date.parse(breach.intimation.lastProgressAt ?? breach.intimation.startedAt ?? '1970-01-01T00:00:00Z') > deliveryConfig.breachIntimationStallSeconds * 1000;

const runView = (breach: Breach, resumed: boolean) => ({
  breachId: breach.breachId,
  runId: String(breach.intimation.runId),
  status: breach.intimation.status,
  startedAt: String(breach.intimation.startedAt),
  resumed,
  progress: progressOf(breach.progress),
});

/**
 * The mail one principal would get from these texts, now, in one language: what the dashboard's
 * Notify form previews before anyone is told. The same composer and the same labels as the run.
 */
export const previewIntimation = async (tenantId: string, breachId: string, input: IntimationText & { previewLanguage: LanguageCode }) => {
  const [breach, tenant] = await Promise.all([requireBreach(tenantId, breachId), requireTenant(tenantId)]);
  const { previewLanguage, ...texts } = input;
  const text = await withTenantLabels(tenantId, texts);
  const language = mailLanguage(previewLanguage, text);
  const mail = intimationMail('principal@example.invalid', tenant, breach, text, language);
  return { language, subject: mail.subject, text: mail.text };
};

export const startIntimation = async (caller: Caller, breachId: string, text: IntimationText) => {
  const breach = await requireBreach(caller.tenantId, breachId, true);
  requireOpen(breach);
  const now = clock.now();
  if (breach.intimation.status === 'RUNNING') {
    if (!stalled(breach, now)) throw new ConflictError(`An intimation of this breach is running (started ${breach.intimation.startedAt}); follow its progress with GET /breaches/${breachId}`);
    // No progress for a while: its lost messages are queued again; its words stay those it started with.
    await resumeRun(breach);
    return runView(breach, true);
  }
  const at = now.toISOString();
  const runId = newTimeOrderedId(now);
  const languages = ['EN', ...Object.keys(text.translations ?? {})];
  // The tenant's words are taken now and logged with the run: every principal of it reads these.
  const document = breachDocument(breach, 'principal-intimation', at, await actorOf(caller), { runId, languages }, { runId, text: await withTenantLabels(caller.tenantId, text) });
  if (Buffer.byteLength(document.document.canonical) > maxTextBytes) {
    throw new ValidationError({ translations: `the intimation's texts are ${Buffer.byteLength(document.document.canonical)} bytes together; at most ${maxTextBytes}` });
  }
  const intimation: Breach['intimation'] = {
    status: 'RUNNING',
    runId,
    runs: breach.intimation.runs + 1,
    startedAt: at,
    finishedAt: null,
    textDocumentId: document.document.documentId,
    resolved: false,
    batchesPlanned: 0,
    batchesDone: 0,
    lastProgressAt: at,
  };
  await writeTransaction([versionedChange(breach, { intimation }, at), document.item]);
  await enqueue({ kind: 'resolve', tenantId: breach.tenantId, breachId, runId, page: 0, cursor: null, batchesBefore: 0 });
  return runView({ ...breach, intimation }, false);
};
