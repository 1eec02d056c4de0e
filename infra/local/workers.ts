import { DeleteMessageBatchCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { handler as scanner } from '../../functions/scanner/handler';
import { handler as webhookWorker } from '../../functions/webhook-worker/handler';
import { clock } from '../../shared/clock';
import { config } from '../../shared/config';
import { completePendingWithdrawals } from '../../shared/consent/withdrawal-apply';
import { drainOutbox } from '../../shared/events/drain';
import { describeError, log } from '../../shared/log';
import { sqs } from '../../shared/queue/sqs';
import { scanBudget } from '../../shared/scanner/budget';
import { startDueScans } from '../../shared/scanner/schedule';
import { sweepOverdueDeliveries } from '../../shared/webhooks/sweeper';

/**
 * The local stand-ins for Lambda's triggers: a loop that drains the outbox (DynamoDB Streams in
 * AWS) and one that polls the webhook queue and hands batches to the worker's handler as an SQS
 * event source mapping would, deleting what it did not report as failed.
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

export const startWorkers = (idleMs = 200) => {
  const stops = [
    loop('mail drain', () => drainOutbox('MAIL'), idleMs),
    loop('event drain', () => drainOutbox('EVENT'), idleMs),
    // The stream trigger's job in AWS: withdrawals a crash left half-applied are finished.
    loop('withdrawal completer', () => completePendingWithdrawals({ olderThanMs: 30_000, now: clock.now() }), Math.max(idleMs, 1000)),
  ];
  const queueUrl = config.webhookQueueUrl;
  if (queueUrl) {
    stops.push(loop('webhook queue', () => pollQueue(queueUrl, webhookWorker, { batchSize: 10, visibilitySeconds: 30 }), idleMs));
    // The scheduled sweeper's job in AWS; here it also recovers retries lost when the in-memory
    // SQS emulator was restarted with the stack.
    stops.push(loop('webhook sweeper', () => sweepOverdueDeliveries(), Math.max(idleMs, 30_000)));
  }
  const scanQueueUrl = config.scanQueueUrl;
  if (scanQueueUrl) {
    // The scanner Lambda's job: one scan at a time, hidden from other receivers for the run budget.
    stops.push(loop('tracker scans', () => pollQueue(scanQueueUrl, scanner, { batchSize: 1, visibilitySeconds: scanBudget.lambdaTimeoutSeconds + 60 }), idleMs));
    // The scheduled Lambda's job: tenants whose 30-day scan is due get a SCHEDULED run.
    stops.push(loop('scan scheduler', () => startDueScans(), Math.max(idleMs, 60_000)));
  }
  return { stop: async () => void (await Promise.all(stops.map((stop) => stop()))) };
};
