import { DeleteMessageBatchCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { handler as breachWorker } from '../../functions/breach-worker/handler';
import { handler as scanner } from '../../functions/scanner/handler';
import { handler as webhookWorker } from '../../functions/webhook-worker/handler';
import { clock } from '../../shared/clock';
import { config } from '../../shared/config';
import { completePendingWithdrawals } from '../../shared/consent/withdrawal-apply';
import { drainOutbox, type OutboxItem } from '../../shared/events/drain';
import { signDueCheckpoints } from '../../shared/evidence/checkpointer';
import { retryParkedLogs } from '../../shared/evidence/parked';
import { describeError, log } from '../../shared/log';
import { sqs } from './sqs';
import { scanBudget } from '../../shared/scanner/budget';
import { sweepRightsDue } from '../../shared/rights/sweeper';
import { sweepChildren } from '../../shared/children/sweeper';
import { sweepRetentionDue } from '../../shared/retention/sweeper';
import { startDueScans } from '../../shared/scanner/schedule';
import { sweepOverdueDeliveries } from '../../shared/webhooks/sweeper';
import type { StreamChange } from '../../shared/stream/change';
import { checkHealth } from './health';
import type { Bundles } from './bundles';
import { startStreamReader, type StreamPosition } from './stream-reader';

/**
 * The local stand-ins for Lambda's triggers: the stream reader, which feeds DynamoDB Local's stream
 * of the table to the same consumers as the stream function in AWS; a loop that polls the webhook
 * queue and hands batches to the worker's handler as an SQS event source mapping would, deleting
 * what it did not report as failed; and the scheduled functions' loops.
 */
export const sqsRecord = (message: { MessageId?: string; ReceiptHandle?: string; Body?: string }, queueArn: string): SQSRecord => ({
  messageId: message.MessageId ?? '',
  receiptHandle: message.ReceiptHandle ?? '',
  body: message.Body ?? '',
  attributes: { ApproximateReceiveCount: '1', SentTimestamp: String(Date.now()), SenderId: 'local', ApproximateFirstReceiveTimestamp: String(Date.now()) },
  messageAttributes: {},
  md5OfBody: '',
  eventSource: 'aws:sqs',
  eventSourceARN: queueArn,
  awsRegion: config.region,
});

/** Hands what the queue holds to `handle` as Lambda's event source mapping would (batch size, visibility). */
const pollQueue = async (
  queueUrl: string,
  handle: (event: SQSEvent) => Promise<{ batchItemFailures: { itemIdentifier: string }[] } | void>,
  options: { batchSize: number; visibilitySeconds: number },
): Promise<number> => {
  const { Messages = [] } = await sqs().send(
    new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: options.batchSize, WaitTimeSeconds: 1, VisibilityTimeout: options.visibilitySeconds }),
  );
  if (Messages.length === 0) return 0;
  const event: SQSEvent = { Records: Messages.map((message) => sqsRecord(message, queueUrl)) };
  const { batchItemFailures } = (await handle(event)) ?? { batchItemFailures: [] };
  const failed = new Set(batchItemFailures.map((failure) => failure.itemIdentifier));
  const done = Messages.filter((message) => !failed.has(message.MessageId ?? ''));
  if (done.length > 0) {
    await sqs().send(
      new DeleteMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: done.map((message, index) => ({ Id: String(index), ReceiptHandle: message.ReceiptHandle ?? '' })),
      }),
    );
  }
  return Messages.length;
};

const loop = (name: string, step: () => Promise<unknown>, idleMs: number) => {
  let running = true;
  // Stopping wakes a loop from its idle wait, so a long interval (the sweeper's) never delays a stop.
  let wake: () => void = () => undefined;
  const idle = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, idleMs);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  const finished = (async () => {
    while (running) {
      try {
        const worked = await step();
        if (!worked && running) await idle();
      } catch (error) {
        log.error(`${name} failed; retrying`, describeError(error));
        if (running) await idle();
      }
    }
  })();
  return async () => {
    running = false;
    wake();
    await finished;
  };
};

export interface WorkerOptions {
  /**
   * Where the stream reader starts dispatching: records made from this moment on, or every record
   * the stream retains (24 hours; `npm start`, so nothing written while the stack was down is
   * missed). By default 10 seconds before the workers start: test files share one table and each
   * starts its own workers, which need not replay the others' day of records.
   */
  streamSince?: Date | 'trim-horizon';
  /** Where the workers' reader begins shards it has no position for (see StreamReaderOptions.startAfter). */
  streamStartAfter?: ReadonlyMap<string, string>;
  /** Which stream changes the workers' reader hands on (all by default; see StreamReaderOptions.accept). */
  streamAccept?: (change: StreamChange) => boolean;
  /** Which pending outbox items the safety-net drains hand on (all by default). */
  outboxAccept?: (item: OutboxItem) => boolean;
  /**
   * Which tenants the sweepers (rights, children, retention) take: `tenantAccept`'s by default. A
   * test that runs a sweep itself, on a moved clock, leaves its tenant out, so that its sweep is the
   * only one and what it counts is exact.
   */
  sweepAccept?: (tenantId: string) => boolean;
  /**
   * Whether to run the hourly scan scheduler, which starts every due tenant's scan whoever's it is
   * (on by default). Test files share one table, so theirs leave it to the tests that call it.
   */
  scheduleScans?: boolean;
  /**
   * Whose due work the tenant-wide loops take: the sweeps (unless `sweepAccept`), the checkpoints
   * signed and the parked logs retried (every tenant's by default; a test file's workers, its own).
   */
  tenantAccept?: (tenantId: string) => boolean;
  /** Dead-letter queues whose depth the health check warns about, by name (`npm start` passes its queues'). */
  deadLetterQueueUrls?: Record<string, string>;
  /**
   * The deployed functions' bundles (infra/local/bundles.ts): the stream, queue and scheduled
   * functions are then run from them, as Lambda would run them, instead of from source. The local
   * safety nets that no function stands for (the drains, the withdrawal completer, the health
   * check) and the tracker scanner (a container image) still run from source.
   */
  bundles?: Bundles;
}

/**
 * How far this process's stream readers got, per shard: workers started again (a test that stops
 * them to simulate a crash) resume where the last ones stopped, as Lambda's event source mapping
 * would, instead of replaying the stream from `streamSince`.
 */
const streamPosition: StreamPosition = new Map();

/** How far this process's workers have read the stream (what tests/support/stream-board.ts publishes). */
export const streamProgress = (): ReadonlyMap<string, string> => streamPosition;

type Handler<Event, Result = unknown> = (event: Event) => Promise<Result>;
type QueueResult = { batchItemFailures: { itemIdentifier: string }[] } | void;

export const startWorkers = (idleMs = 200, options: WorkerOptions = {}) => {
  const since = options.streamSince ?? new Date(Date.now() - 10_000);
  const sweepAccept = options.sweepAccept ?? options.tenantAccept;
  const { bundles } = options;
  /** A function's handler from its bundle (imported on first call), or undefined when running from source. */
  const bundled = <Event = undefined, Result = unknown>(name: Parameters<Bundles['handlerOf']>[0]): Handler<Event, Result> | undefined =>
    bundles && (async (event: Event) => (await bundles.handlerOf<Handler<Event, Result>>(name))(event));
  const stream = startStreamReader({
    idleMs,
    // At rest, a write of this process cues the reader at once; others wait at most this long.
    restMs: Math.max(5 * idleMs, 1000),
    position: streamPosition,
    ...(since === 'trim-horizon' ? {} : { since }),
    ...(options.streamAccept ? { accept: options.streamAccept } : {}),
    ...(bundles ? { handler: bundled('stream') as never } : {}),
    ...(options.streamStartAfter ? { startAfter: options.streamStartAfter } : {}),
  });
  const checkpointer = bundled('checkpointer');
  /** A scheduled function: its bundle invoked as EventBridge would (the event is not read), else its source. */
  const scheduled = (name: Parameters<Bundles['handlerOf']>[0], source: () => Promise<unknown>): (() => Promise<unknown>) => {
    const handler = bundled(name);
    return handler ? () => handler(undefined) : source;
  };
  const stops = [
    stream.stop,
    ...(checkpointer
      ? // The checkpointer function: parked entries, then due checkpoints signed and archived (each run
        // also logs the log's health metrics, hence a calmer pace than the source loop's).
        [loop('checkpointer', () => checkpointer(undefined), Math.max(idleMs, 2000))]
      : [
          // Checkpoints are signed at most every CHECKPOINT_INTERVAL_SECONDS per tenant (the checkpointer function's schedule in AWS).
          loop('checkpointer', async () => void (await signDueCheckpoints(options.tenantAccept)), Math.max(idleMs, 500)),
          // Tenants whose log entries the stream parked after a failure are retried apart (the checkpointer function's job in AWS).
          loop('parked log retry', async () => void (await retryParkedLogs(options.tenantAccept)), Math.max(idleMs, 5000)),
        ]),
    // What the stream's consumers parked for a tenant (the stream sweeper function's job, every minute in AWS).
    ...(bundles ? [loop('stream sweeper', scheduled('stream-sweeper', async () => undefined), Math.max(idleMs, 60_000))] : []),
    // Safety nets beside the stream reader (which hands new outbox items and withdrawals on as they
    // are written): items or withdrawals left pending by a failure are picked up here, within a
    // second (polling at the stream's pace cost each test file's workers a third of a core, idle).
    loop('mail drain', () => drainOutbox('MAIL', 25, options.outboxAccept), Math.max(idleMs, 1000)),
    loop('event drain', () => drainOutbox('EVENT', 25, options.outboxAccept), Math.max(idleMs, 1000)),
    // The stream trigger's job in AWS: withdrawals a crash left half-applied are finished.
    loop('withdrawal completer', () => completePendingWithdrawals({ olderThanMs: 30_000, now: clock.now() }), Math.max(idleMs, 1000)),
    // The rights sweeper Lambda's job (every 15 minutes in AWS): expiries, the DPO's reminders and overdue notices.
    // (A test's own tenants only: the bundled function sweeps every tenant, so a test that limits the sweep runs it from source.)
    loop('rights sweeper', sweepAccept ? () => sweepRightsDue({ accept: sweepAccept }) : scheduled('rights-sweeper', () => sweepRightsDue()), Math.max(idleMs, 30_000)),
    // The same function's children sweeps (its bundle above runs them too): guardian requests unanswered
    // for 7 days expire, children coming of age are announced; from source every few seconds here, so a
    // test does not wait out the rights sweeper's pace.
    loop('children sweeper', () => sweepChildren(sweepAccept ? { accept: sweepAccept } : {}), Math.max(idleMs, 3_000)),
    // The same function's retention sweep (shared/retention/sweeper.ts): notices, cancellations and
    // expiries of principals whose retention periods end; every few seconds here, so an end-to-end
    // test with periods of a minute sees it.
    loop('retention sweeper', () => sweepRetentionDue(sweepAccept ? { accept: sweepAccept } : {}), Math.max(idleMs, 3_000)),
    // The stack's alarms, as warnings: stream lag, dead letters, checkpoint lag, parked tenants.
    loop('health check', async () => void (await checkHealth(stream.lagSeconds(), options.deadLetterQueueUrls ?? {})), config.alarmThresholds.localCheckSeconds * 1000),
  ];
  const queueUrl = config.webhookQueueUrl;
  if (queueUrl) {
    stops.push(loop('webhook queue', () => pollQueue(queueUrl, bundled<SQSEvent, QueueResult>('webhook-worker') ?? webhookWorker, { batchSize: 10, visibilitySeconds: 30 }), idleMs));
    // The scheduled sweeper's job in AWS; here it also recovers retries lost when the in-memory
    // SQS emulator was restarted with the stack.
    stops.push(loop('webhook sweeper', scheduled('webhook-sweeper', () => sweepOverdueDeliveries()), Math.max(idleMs, 30_000)));
  }
  const breachQueueUrl = config.breachQueueUrl;
  if (breachQueueUrl) {
    // The breach worker Lambda's job: pages and batches of a breach intimation (up to two messages a poll).
    stops.push(loop('breach intimations', () => pollQueue(breachQueueUrl, bundled<SQSEvent, QueueResult>('breach-worker') ?? breachWorker, { batchSize: 2, visibilitySeconds: 60 }), idleMs));
  }
  const scanQueueUrl = config.scanQueueUrl;
  if (scanQueueUrl) {
    // The scanner Lambda's job: one scan at a time, hidden from other receivers for the run budget.
    stops.push(loop('tracker scans', () => pollQueue(scanQueueUrl, scanner, { batchSize: 1, visibilitySeconds: scanBudget.lambdaTimeoutSeconds + 60 }), idleMs));
    // The scheduled Lambda's job: tenants whose 30-day scan is due get a SCHEDULED run.
    if (options.scheduleScans !== false) stops.push(loop('scan scheduler', scheduled('scan-scheduler', () => startDueScans()), Math.max(idleMs, 60_000)));
  }
  return { stop: async () => void (await Promise.all(stops.map((stop) => stop()))) };
};
