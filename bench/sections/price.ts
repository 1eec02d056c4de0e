import { DeleteMessageBatchCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord, DynamoDBStreamEvent, SQSEvent } from 'aws-lambda';
import { handler as outboxHandler } from '../../functions/outbox/handler';
import { handler as webhookWorker } from '../../functions/webhook-worker/handler';
import { sqsRecord } from '../../infra/local/workers';
import { config } from '../../shared/config';
import { db, tableName } from '../../shared/db/client';
import { drainOutbox } from '../../shared/events/drain';
import { outboxKeys } from '../../shared/events/keys';
import { sqs } from '../../shared/queue/sqs';
import type { DeployedFunction } from '../deployment';
import type { BenchTenant, Receiver } from '../fixtures';
import { invoke, requireRoute } from '../invoke';
import { combine, describeCalls, describeSqs, describeUnits, measure, totalCalls, type Work } from '../meter';
import { printTable } from '../report';
import type { Settings } from '../settings';
import { accessHeaders, accessRows } from './work';

/** Prices in USD (the brief's list prices): per million requests or units, and per GB-second. */
export const rates = {
  apiGatewayPerMillion: 1.0,
  lambdaRequestPerMillion: 0.2,
  lambdaGbSecond: 0.0000166667,
  writeUnitPerMillion: 0.625,
  readUnitPerMillion: 0.125,
  sqsRequestPerMillion: 0.4,
};

/** One Lambda's share of a consent: invocations, billed milliseconds (each invocation rounded up to 1 ms) and work. */
interface Stage {
  invocations: number;
  billedMs: number;
  memoryMb: number;
  work: Work;
}

const pendingEvents = async (tenantId: string) => {
  const items: Record<string, unknown>[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk',
        ExpressionAttributeValues: { ':pk': outboxKeys.pendingPartition('EVENT') },
        ExclusiveStartKey,
      }),
    );
    items.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items.filter((item) => item.PK === `TENANT#${tenantId}`);
};

/** What DynamoDB Streams hands the outbox Lambda for new items (INSERT, NEW_IMAGE). */
const streamEventOf = (items: Record<string, unknown>[]): DynamoDBStreamEvent => ({
  Records: items.map(
    (item, index): DynamoDBRecord => ({
      eventID: String(index),
      eventName: 'INSERT',
      eventSource: 'aws:dynamodb',
      dynamodb: { NewImage: marshall(item, { removeUndefinedValues: true }) as NonNullable<DynamoDBRecord['dynamodb']>['NewImage'], SequenceNumber: String(index), StreamViewType: 'NEW_IMAGE' },
    }),
  ),
});

interface Tally {
  invocations: number;
  billedMs: number;
  works: Work[];
}

const tally = (): Tally => ({ invocations: 0, billedMs: 0, works: [] });

const billed = (stage: Tally, ms: number, work: Work) => {
  stage.invocations += 1;
  stage.billedMs += Math.ceil(ms);
  stage.works.push(work);
};

export interface PriceResult {
  consents: number;
  rates: typeof rates;
  stages: Record<'sdkRecord' | 'outbox' | 'webhookWorker' | 'sqsPolling', Stage>;
  perConsent: { lambdaInvocations: number; gbSeconds: number; rru: number; wru: number; sqsRequests: number; dynamodbCalls: number };
  usdPerMillion: { apiGateway: number; lambdaRequests: number; lambdaCompute: number; dynamodbWrites: number; dynamodbReads: number; sqs: number; total: number };
  floorUsdPerMillion: { apiGateway: number; lambdaRequests: number; lambdaCompute: number; dynamodbWrites: number; total: number };
}

/**
 * Price per million consents recorded through sdk-record, including the outbox drainer and one
 * webhook delivery each: every Lambda is invoked here as AWS would invoke it (the outbox handler
 * with stream batches, the worker with SQS batches) and its DynamoDB and SQS work is counted.
 */
export const measurePrice = async (tenant: BenchTenant, receiver: Receiver, functions: Map<string, DeployedFunction>, settings: Settings): Promise<PriceResult> => {
  const deployed = (name: string) => {
    const found = functions.get(name);
    if (!found) throw new Error(`the CDK stack has no function "${name}"`);
    return found;
  };
  // Batches as the stack's event source mappings deliver them when records pile up (their defaults
  // are 100 and 10); one ReceiveMessage returns at most 10 messages.
  const streamBatchSize = deployed('outbox').batchSize ?? 100;
  const sqsBatchSize = Math.min(10, deployed('webhook-worker').batchSize ?? 10);
  // Events of the set-up so far are handed on first, so that only this section's are counted.
  while ((await drainOutbox('EVENT')) > 0);

  const sdkRecord = requireRoute('POST', '/api/v1/consent/sdk-record');
  const [required, optional] = tenant.purposeIds as [string, string];
  const stages = { sdkRecord: tally(), outbox: tally(), webhookWorker: tally(), sqsPolling: tally() };
  const deliveredBefore = receiver.deliveries();
  for (let index = 0; index < settings.priceConsents; index += 1) {
    const { result, work, ms } = await measure(() =>
      invoke(sdkRecord, { body: { apiKey: tenant.apiKey, status: 'PARTIAL', purposes: { [required]: true, [optional]: false } } }),
    );
    if (result.status !== 201) throw new Error(`sdk-record answered ${result.status}: ${JSON.stringify(result.body)}`);
    billed(stages.sdkRecord, ms, work);
  }

  const events = await pendingEvents(tenant.tenantId);
  if (events.length !== settings.priceConsents) throw new Error(`expected ${settings.priceConsents} outbox events, found ${events.length}`);
  for (let start = 0; start < events.length; start += streamBatchSize) {
    const { result, work, ms } = await measure(() => outboxHandler(streamEventOf(events.slice(start, start + streamBatchSize))));
    if (result.batchItemFailures.length > 0) throw new Error('the outbox handler reported failures');
    billed(stages.outbox, ms, work);
  }

  // The SQS event source mapping: receive a batch, invoke the worker, delete what it did not report as failed.
  const queueUrl = config.webhookQueueUrl!;
  const deadline = Date.now() + 60_000;
  while (receiver.deliveries() - deliveredBefore < settings.priceConsents) {
    if (Date.now() > deadline) throw new Error(`only ${receiver.deliveries() - deliveredBefore} of ${settings.priceConsents} webhook deliveries arrived`);
    const received = await measure(() => sqs().send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: sqsBatchSize, WaitTimeSeconds: 1 })));
    const messages = received.result.Messages ?? [];
    if (messages.length === 0) continue;
    stages.sqsPolling.works.push(received.work);
    const event: SQSEvent = {
      Records: messages.map((message) => sqsRecord(message, queueUrl)),
    };
    const { result, work, ms } = await measure(() => webhookWorker(event));
    billed(stages.webhookWorker, ms, work);
    const failed = new Set(result.batchItemFailures.map((failure) => failure.itemIdentifier));
    const done = messages.filter((message) => !failed.has(message.MessageId ?? ''));
    if (done.length > 0) {
      const deleted = await measure(() =>
        sqs().send(new DeleteMessageBatchCommand({ QueueUrl: queueUrl, Entries: done.map((message, index) => ({ Id: String(index), ReceiptHandle: message.ReceiptHandle ?? '' })) })),
      );
      stages.sqsPolling.works.push(deleted.work);
    }
  }

  const consents = settings.priceConsents;
  const memory = { sdkRecord: deployed(sdkRecord.group).memoryMb, outbox: deployed('outbox').memoryMb, webhookWorker: deployed('webhook-worker').memoryMb, sqsPolling: 0 };
  const perConsent = Object.fromEntries(
    (Object.keys(stages) as (keyof typeof stages)[]).map((name) => {
      const stage = stages[name];
      return [name, { invocations: stage.invocations / consents, billedMs: stage.billedMs / consents, memoryMb: memory[name], work: combine(stage.works, 1 / consents) }];
    }),
  ) as PriceResult['stages'];
  const all = Object.values(perConsent);
  const allWork = combine(all.map((stage) => stage.work));
  const lambdaInvocations = perConsent.sdkRecord.invocations + perConsent.outbox.invocations + perConsent.webhookWorker.invocations;
  const gbSeconds = all.reduce((sum, stage) => sum + (stage.memoryMb / 1024) * (stage.billedMs / 1000), 0);
  const sqsRequests = totalCalls(allWork.sqs);
  const usd = {
    apiGateway: rates.apiGatewayPerMillion,
    lambdaRequests: lambdaInvocations * rates.lambdaRequestPerMillion,
    lambdaCompute: gbSeconds * 1e6 * rates.lambdaGbSecond,
    dynamodbWrites: allWork.wru * rates.writeUnitPerMillion,
    dynamodbReads: allWork.rru * rates.readUnitPerMillion,
    sqs: sqsRequests * rates.sqsRequestPerMillion,
  };
  const floor = {
    apiGateway: rates.apiGatewayPerMillion,
    lambdaRequests: rates.lambdaRequestPerMillion,
    // Lambda's smallest bill: 1 ms at the function's memory.
    lambdaCompute: (memory.sdkRecord / 1024) * 0.001 * 1e6 * rates.lambdaGbSecond,
    dynamodbWrites: rates.writeUnitPerMillion,
  };
  const result: PriceResult = {
    consents,
    rates,
    stages: perConsent,
    perConsent: { lambdaInvocations, gbSeconds, rru: allWork.rru, wru: allWork.wru, sqsRequests, dynamodbCalls: totalCalls(allWork.calls) },
    usdPerMillion: { ...usd, total: Object.values(usd).reduce((sum, value) => sum + value, 0) },
    floorUsdPerMillion: { ...floor, total: Object.values(floor).reduce((sum, value) => sum + value, 0) },
  };

  printTable(
    `5a. Work per consent, by Lambda (${consents} consents through sdk-record, each fanned out to one webhook and delivered; all figures per consent)`,
    ['stage', 'invocations', 'billed ms', 'MB', 'DynamoDB calls', 'RRU', 'WRU', 'SQS'],
    (Object.entries(perConsent) as [string, Stage][]).map(([name, stage]) => [
      name,
      name === 'sqsPolling' ? undefined : stage.invocations,
      name === 'sqsPolling' ? undefined : stage.billedMs,
      name === 'sqsPolling' ? undefined : stage.memoryMb,
      describeCalls(stage.work),
      describeUnits(stage.work.rru, stage.work.rruBy),
      describeUnits(stage.work.wru, stage.work.wruBy),
      describeSqs(stage.work),
    ]),
    [
      `Batches as full as the stack allows (${streamBatchSize} stream records, ${sqsBatchSize} messages); with sparse traffic they are smaller, up to one outbox and one worker invocation per consent.`,
      'sqsPolling: the SQS event source mapping\'s receive and delete calls that carried messages (its empty long polls are a fixed cost, not per consent).',
    ],
  );
  const row = (label: string, quantity: string, actual: number, floorValue?: number) => [label, quantity, `$${actual.toFixed(4)}`, floorValue === undefined ? '–' : `$${floorValue.toFixed(4)}`];
  printTable(
    '5b. Price per million consents (USD)',
    ['item', 'per consent', 'measured', 'floor'],
    [
      row('API Gateway HTTP API', '1 request', usd.apiGateway, floor.apiGateway),
      row('Lambda requests', `${lambdaInvocations.toFixed(3)} invocations`, usd.lambdaRequests, floor.lambdaRequests),
      row('Lambda compute', `${(gbSeconds * 1000).toFixed(3)} GB-ms`, usd.lambdaCompute, floor.lambdaCompute),
      row('DynamoDB writes', `${allWork.wru.toFixed(2)} WRU`, usd.dynamodbWrites, floor.dynamodbWrites),
      row('DynamoDB reads', `${allWork.rru.toFixed(2)} RRU`, usd.dynamodbReads),
      row('SQS', `${sqsRequests.toFixed(2)} requests`, usd.sqs),
      row('total', '', result.usdPerMillion.total, result.floorUsdPerMillion.total),
    ],
    [
      `Floor: one API request, one Lambda invocation billed 1 ms, one 1 KB write. Lambda compute at $${rates.lambdaGbSecond} per GB-s, the x86 list price; the stack deploys ${functions.get(sdkRecord.group)?.architecture}.`,
      'Handler time is measured against DynamoDB Local on loopback; in AWS each sequential DynamoDB call adds its network round trip.',
    ],
  );
  printTable(
    '5c. Where the units of a consent go (mean per consent)',
    accessHeaders('stage'),
    (Object.entries(perConsent) as [string, Stage][]).flatMap(([name, stage]) => accessRows(name, stage.work)),
  );
  return result;
};
