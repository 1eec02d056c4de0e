import { startWorkers } from '../../infra/local/workers';
import { waitFor, type BenchTenant, type Receiver } from '../fixtures';
import { invoke, requireRoute } from '../invoke';
import { percentile } from '../load';
import { printTable } from '../report';
import type { Settings } from '../settings';

/** Poll interval of the local worker loops while idle (infra/local/workers.ts; `npm start` uses 200 ms). */
const idleMs = 20;

export interface WebhookLatency {
  consents: number;
  idlePollMs: number;
  /** From the sdk-record call to the first delivery attempt arriving at the receiver. */
  toFirstAttemptMs: { p50: number; p90: number; max: number };
  /** The sdk-record handler alone. */
  recordMs: { p50: number };
}

/**
 * Time from a consent to its first webhook delivery attempt, through the local stack's worker
 * loops (the stream reader's fan-out, then the SQS queue and the worker), one consent at a time.
 */
export const measureWebhookLatency = async (tenant: BenchTenant, receiver: Receiver, settings: Settings): Promise<WebhookLatency> => {
  const sdkRecord = requireRoute('POST', '/api/v1/consent/sdk-record');
  const [required] = tenant.purposeIds as [string, string];
  const workers = startWorkers(idleMs);
  const toDelivery: number[] = [];
  const record: number[] = [];
  try {
    for (let index = 0; index < settings.webhookConsents; index += 1) {
      const started = performance.now();
      const answer = await invoke<{ data: { consentRecordId: string } }>(sdkRecord, { body: { apiKey: tenant.apiKey, status: 'ACCEPTED', purposes: { [required]: true } } });
      record.push(performance.now() - started);
      if (answer.status !== 201) throw new Error(`sdk-record answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      const id = answer.body.data.consentRecordId;
      await waitFor(() => receiver.firstArrival.has(id), 30_000, `the webhook delivery of ${id}`);
      toDelivery.push(receiver.firstArrival.get(id)! - started);
    }
  } finally {
    await workers.stop();
  }
  toDelivery.sort((a, b) => a - b);
  record.sort((a, b) => a - b);
  const result = {
    consents: settings.webhookConsents,
    idlePollMs: idleMs,
    toFirstAttemptMs: { p50: percentile(toDelivery, 50), p90: percentile(toDelivery, 90), max: toDelivery.at(-1)! },
    recordMs: { p50: percentile(record, 50) },
  };
  printTable(
    '8. Webhooks: consent recorded → first delivery attempt at a local receiver',
    ['consents', 'p50 ms', 'p90 ms', 'max ms', 'of which sdk-record p50 ms'],
    [[result.consents, result.toFirstAttemptMs.p50, result.toFirstAttemptMs.p90, result.toFirstAttemptMs.max, result.recordMs.p50]],
    [`Local worker loops (infra/local/workers.ts) polling every ${idleMs} ms when idle; the stream reader stands in for the stream function's event source mapping (consent.recorded is fanned out from the table's stream).`],
  );
  return result;
};
