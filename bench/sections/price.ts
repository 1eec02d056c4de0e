import { DeleteMessageBatchCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { BatchGetCommand } from '../../shared/db/commands';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord, DynamoDBStreamEvent, SQSEvent } from 'aws-lambda';
import { handler as streamHandler } from '../../functions/stream/handler';
import { handler as webhookWorker } from '../../functions/webhook-worker/handler';
import { sqsRecord } from '../../infra/local/workers';
import { config } from '../../shared/config';
import { consentKeys } from '../../shared/consent/keys';
import { db, tableName } from '../../shared/db/client';
import { sqs } from '../../infra/local/sqs';
import type { DeployedFunction } from '../deployment';
import type { BenchTenant, Receiver } from '../fixtures';
import { invoke, requireRoute } from '../invoke';
import { describeCalls, describeSqs, describeUnits, measure } from '../meter';
import { billed, floorOf, fullCpuMemoryMb, perConsentStage, priceOf, rates, tally, unitBreakdown, type Invocation, type Price, type Stage, type Tally } from '../pricing';
import { printTable } from '../report';
import { sizeMemory, type Sizing } from '../sizing';
import type { Settings } from '../settings';
import { accessHeaders, accessRows } from './work';

/** A way consents arrive: how many, how many records each stream invocation gets, and whether the tenant has a webhook. */
interface Scenario {
  name: string;
  tenant: BenchTenant;
  consents: number;
  streamBatch: number;
  webhook: boolean;
}

export interface ScenarioPrice extends Scenario {
  stages: Record<string, Stage>;
  price: Price;
  /** WRU per consent by what they write (pricing.ts unitBreakdown). */
  units: Record<string, number>;
}

export interface PriceResult {
  rates: typeof rates;
  /** Memory by measurement for each priced function (sizing.ts); the stream's for full batches and for single records. */
  sizing: Record<string, Sizing>;
  scenarios: (Omit<ScenarioPrice, 'tenant'> & { tenant: string })[];
  floorUsdPerMillion: ReturnType<typeof floorOf>;
}

/** The new items themselves, as the stream carries them (read outside any measured scope). */
export const itemsOf = async (tenantId: string, recordIds: readonly string[]): Promise<Record<string, unknown>[]> => {
  const byId = new Map<string, Record<string, unknown>>();
  for (let at = 0; at < recordIds.length; at += 100) {
    const keys = recordIds.slice(at, at + 100).map((id) => consentKeys.record(tenantId, id));
    const { Responses } = await db().send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: keys, ConsistentRead: true } } }));
    for (const item of Responses?.[tableName()] ?? []) byId.set(String(item.SK), item);
  }
  const items = recordIds.map((id) => byId.get(consentKeys.record(tenantId, id).SK));
  if (items.some((item) => !item)) throw new Error(`only ${byId.size} of ${recordIds.length} records were found`);
  return items as Record<string, unknown>[];
};

/** What DynamoDB Streams hands the stream Lambda for new items (INSERT, NEW_AND_OLD_IMAGES as the table streams). */
export const streamEventOf = (items: Record<string, unknown>[]): DynamoDBStreamEvent => ({
  Records: items.map((item, index): DynamoDBRecord => {
    const image = marshall(item, { removeUndefinedValues: true }) as NonNullable<DynamoDBRecord['dynamodb']>['NewImage'];
    return {
      eventID: String(index),
      eventName: 'INSERT',
      eventSource: 'aws:dynamodb',
      dynamodb: { Keys: marshall({ PK: item.PK, SK: item.SK }) as NonNullable<DynamoDBRecord['dynamodb']>['Keys'], NewImage: image, SequenceNumber: String(index), StreamViewType: 'NEW_AND_OLD_IMAGES' },
    };
  }),
});

/**
 * The SQS event source mapping, until `expected` deliveries arrived since `before`: receive a
 * batch, invoke the worker, delete what it did not fail. The fan-out makes each first attempt
 * itself, so only the attempts that failed there come through the queue.
 */
const deliver = async (receiver: Receiver, before: number, expected: number, batchSize: number, worker: Tally, polling: Tally) => {
  const queueUrl = config.webhookQueueUrl!;
  const deadline = Date.now() + 60_000;
  while (receiver.deliveries() - before < expected) {
    if (Date.now() > deadline) throw new Error(`only ${receiver.deliveries() - before} of ${expected} webhook deliveries arrived`);
    const received = await measure(() => sqs().send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: batchSize, WaitTimeSeconds: 1 })));
    const messages = received.result.Messages ?? [];
    if (messages.length === 0) continue;
    polling.works.push(received.work);
    const event: SQSEvent = { Records: messages.map((message) => sqsRecord(message, queueUrl)) };
    const { result, work, ms, cpuMs } = await measure(() => webhookWorker(event));
    billed(worker, { ms, cpuMs }, work);
    const failed = new Set(result.batchItemFailures.map((failure) => failure.itemIdentifier));
    const done = messages.filter((message) => !failed.has(message.MessageId ?? ''));
    if (done.length === 0) continue;
    const deleted = await measure(() =>
      sqs().send(new DeleteMessageBatchCommand({ QueueUrl: queueUrl, Entries: done.map((message, index) => ({ Id: String(index), ReceiptHandle: message.ReceiptHandle ?? '' })) })),
    );
    polling.works.push(deleted.work);
  }
};

/**
 * Price per million consents recorded through sdk-record, with everything the table's stream then
 * does for them: the real functions/stream handler is invoked with stream events built from the
 * new record items (as full as the scenario's batches), which sequences them into the evidence
 * log, integrates the tree, signs checkpoints when due and fans consent.recorded out; with a
 * webhook, the real worker then delivers each from SQS batches. Every call is counted.
 */
export const measurePrice = async (
  tenants: { plain: BenchTenant; withWebhook: BenchTenant },
  receiver: Receiver,
  functions: Map<string, DeployedFunction>,
  settings: Settings,
): Promise<PriceResult> => {
  const deployed = (name: string) => {
    const found = functions.get(name);
    if (!found) throw new Error(`the CDK stack has no function "${name}"`);
    return found;
  };
  // Sustained traffic as the issue prices it: 100 records of a tenant per stream invocation; the
  // stack's own event source mapping (its batch size, when smaller) is priced beside it. One
  // ReceiveMessage returns at most 10 messages.
  const sustainedBatch = 100;
  const stackBatch = deployed('stream').batchSize ?? sustainedBatch;
  const sqsBatchSize = Math.min(10, deployed('webhook-worker').batchSize ?? 10);
  const sdkRecord = requireRoute('POST', '/api/v1/consent/sdk-record');
  const memory: Record<string, number> = { sdkRecord: deployed(sdkRecord.group).memoryMb, stream: deployed('stream').memoryMb, webhookWorker: deployed('webhook-worker').memoryMb, sqsPolling: 0 };
  const { sustained, sparse } = settings.priceConsents;
  const scenarios: Scenario[] = [
    { name: 'sustained', tenant: tenants.plain, consents: sustained, streamBatch: sustainedBatch, webhook: false },
    { name: 'sustained + webhook', tenant: tenants.withWebhook, consents: sustained, streamBatch: sustainedBatch, webhook: true },
    ...(stackBatch < sustainedBatch ? [{ name: `stack batch ${stackBatch}`, tenant: tenants.plain, consents: sustained, streamBatch: stackBatch, webhook: false }] : []),
    { name: 'sparse', tenant: tenants.plain, consents: sparse, streamBatch: 1, webhook: false },
    { name: 'sparse + webhook', tenant: tenants.withWebhook, consents: sparse, streamBatch: 1, webhook: true },
  ];

  // Every invocation of each priced function over all scenarios, for the memory sizing.
  const measured: Record<string, Invocation[]> = { [sdkRecord.group]: [], 'stream (batches of 100)': [], 'stream (single records)': [], 'webhook-worker': [] };
  const run = async (scenario: Scenario): Promise<ScenarioPrice> => {
    const stages = { sdkRecord: tally(), stream: tally(), webhookWorker: tally(), sqsPolling: tally() };
    const [required, optional] = scenario.tenant.purposeIds as [string, string];
    const ids: string[] = [];
    for (let index = 0; index < scenario.consents; index += 1) {
      // A new visitor address each time, as the widget's consents come (the per key-and-address limit starts anew).
      const { result, work, ms, cpuMs } = await measure(() =>
        invoke<{ data: { consentRecordId: string } }>(sdkRecord, { body: { apiKey: scenario.tenant.apiKey, status: 'PARTIAL', purposes: { [required]: true, [optional]: false } } }),
      );
      if (result.status !== 201) throw new Error(`sdk-record answered ${result.status}: ${JSON.stringify(result.body)}`);
      billed(stages.sdkRecord, { ms, cpuMs }, work);
      ids.push(result.body.data.consentRecordId);
    }
    const items = await itemsOf(scenario.tenant.tenantId, ids);
    const deliveredBefore = receiver.deliveries();
    for (let start = 0; start < items.length; start += scenario.streamBatch) {
      const { result, work, ms, cpuMs } = await measure(() => streamHandler(streamEventOf(items.slice(start, start + scenario.streamBatch))));
      if (result.batchItemFailures.length > 0) throw new Error('the stream handler reported failures');
      billed(stages.stream, { ms, cpuMs }, work);
    }
    if (scenario.webhook) await deliver(receiver, deliveredBefore, scenario.consents, Math.min(sqsBatchSize, scenario.streamBatch), stages.webhookWorker, stages.sqsPolling);
    measured[sdkRecord.group]!.push(...stages.sdkRecord.invocations);
    if (scenario.streamBatch === sustainedBatch) measured['stream (batches of 100)']!.push(...stages.stream.invocations);
    if (scenario.streamBatch === 1) measured['stream (single records)']!.push(...stages.stream.invocations);
    measured['webhook-worker']!.push(...stages.webhookWorker.invocations);
    const perConsent = Object.fromEntries(Object.entries(stages).map(([name, stage]) => [name, perConsentStage(stage, scenario.consents, memory[name]!)]));
    return { ...scenario, stages: perConsent, price: priceOf(perConsent), units: unitBreakdown(perConsent) };
  };
  const results: ScenarioPrice[] = [];
  for (const scenario of scenarios) results.push(await run(scenario));
  const floor = floorOf(memory.sdkRecord!);
  printPrice(results, floor, functions.get(sdkRecord.group)?.architecture);
  const sizing = Object.fromEntries(Object.entries(measured).filter(([, invocations]) => invocations.length > 0).map(([name, invocations]) => [name, sizeMemory(invocations)]));
  printSizing(sizing, functions);
  return { rates, sizing, scenarios: results.map((result) => ({ ...result, tenant: result.tenant.tenantId })), floorUsdPerMillion: floor };
};

const usd = (value: number) => `$${value.toFixed(value < 0.1 ? 4 : 2)}`;

const printPrice = (results: ScenarioPrice[], floor: ReturnType<typeof floorOf>, architecture: string | undefined) => {
  printTable(
    '5a. Work per consent, by Lambda (all figures per consent)',
    ['scenario', 'stage', 'invocations', 'MB', 'billed ms', 'here: ms (CPU ms)', 'DynamoDB calls', 'RRU', 'WRU', 'SQS'],
    results.flatMap((result) =>
      Object.entries(result.stages)
        .filter(([, stage]) => stage.work.wru + stage.work.rru + stage.invocations > 0 || Object.keys(stage.work.sqs).length > 0)
        .map(([name, stage]) => [
          result.name,
          name,
          name === 'sqsPolling' ? undefined : stage.invocations,
          name === 'sqsPolling' ? undefined : stage.memoryMb,
          name === 'sqsPolling' ? undefined : stage.billedMs,
          name === 'sqsPolling' ? undefined : `${stage.localMs.toFixed(1)} (${stage.cpuMs.toFixed(1)})`,
          describeCalls(stage.work),
          describeUnits(stage.work.rru, stage.work.rruBy),
          describeUnits(stage.work.wru, stage.work.wruBy),
          describeSqs(stage.work),
        ]),
    ),
    [
      `Consents: ${results.map((result) => `${result.name} ${result.consents} (stream batches of ${result.streamBatch})`).join(', ')}. Each from a new visitor address (the widget's case).`,
      'sqsPolling: the SQS event source mapping\'s receive and delete calls that carried messages (its empty long polls are a fixed cost, not per consent). Lambda\'s own stream polling is free.',
      `Billed ms at the function's memory (MB): the CPU time measured here stretched by the vCPU share that memory buys (a full one at ${fullCpuMemoryMb} MB), plus the time waited, per invocation (pricing.ts durationAt).`,
    ],
  );
  const names = [...new Set(results.flatMap((result) => Object.keys(result.units)))];
  printTable(
    '5b. Write units per consent by what they write (AWS accounting)',
    ['WRU', ...results.map((result) => result.name)],
    [...names.map((name) => [name, ...results.map((result) => result.units[name] ?? 0)]), ['total', ...results.map((result) => result.price.wru)], ['as DynamoDB Local reported', ...results.map((result) => result.price.wruLocal)]],
    [
      'Transactions: AWS bills 2 WRU per KB of each item (rounded up per item), on the table and on each index it is in. DynamoDB Local doubles them too but rounds',
      '  the items of a transaction up to 1 KB together, so the bench computes transactional units itself from the items (bench/capacity.ts); other writes are taken',
      '  as Local reports them (they match AWS: 1 WRU per KB per item, index writes included, the larger of before and after for an update).',
      'Not counted by Local, billed by AWS: writes whose condition failed (the bench shows them as failed calls). Not priced: S3 PUTs of archived checkpoints.',
    ],
  );
  const line = (label: string, pick: (price: Price) => number, quantity: (price: Price) => string) => [label, ...results.map((result) => `${usd(pick(result.price))} (${quantity(result.price)})`)];
  printTable(
    '5c. Price per million consents (USD)',
    ['item', ...results.map((result) => result.name), 'floor'],
    [
      [...line('API Gateway HTTP API', (price) => price.usd.apiGateway, () => '1 request'), usd(floor.apiGateway)],
      [...line('Lambda requests', (price) => price.usd.lambdaRequests, (price) => `${price.lambdaInvocations.toFixed(3)} inv.`), usd(floor.lambdaRequests)],
      [...line('Lambda compute', (price) => price.usd.lambdaCompute, (price) => `${(price.gbSeconds * 1000).toFixed(2)} GB-ms`), usd(floor.lambdaCompute)],
      [...line('DynamoDB writes', (price) => price.usd.dynamodbWrites, (price) => `${price.wru.toFixed(2)} WRU`), usd(floor.dynamodbWrites)],
      [...line('DynamoDB reads', (price) => price.usd.dynamodbReads, (price) => `${price.rru.toFixed(2)} RRU`), '–'],
      [...line('SQS', (price) => price.usd.sqs, (price) => `${price.sqsRequests.toFixed(2)} requests`), '–'],
      ['total', ...results.map((result) => usd(result.price.usd.total)), usd(floor.total)],
    ],
    [
      `Targets: sustained ≤ $3.00 without webhooks, ≤ $4.00 with one, sparse ≤ $6.00. Lambda compute at $${rates.lambdaGbSecond} per GB-s, the arm64 list price; the stack deploys ${architecture}.`,
      'Handler time is measured against DynamoDB Local on loopback; in AWS each sequential DynamoDB call adds its network round trip.',
    ],
  );
  printTable(
    '5d. Where the units of a consent go (mean per consent)',
    accessHeaders('scenario / stage'),
    results.flatMap((result) => Object.entries(result.stages).flatMap(([name, stage]) => accessRows(`${result.name} / ${name}`, stage.work))),
  );
};

const printSizing = (sizing: Record<string, Sizing>, functions: Map<string, DeployedFunction>) => {
  printTable(
    '5e. Lambda memory by measurement (mean per invocation; cost × duration lowest at 1769 × CPU ms / wait ms, bench/sizing.ts)',
    ['function', 'CPU ms here', 'wait ms here', 'best MB', 'deployed MB', ...candidateColumns(sizing)],
    Object.entries(sizing).map(([name, sized]) => [
      name,
      sized.cpuMs.toFixed(1),
      sized.waitMs.toFixed(1),
      sized.memoryMb,
      functions.get(name.split(' ')[0]!)?.memoryMb,
      ...sized.candidates.map(({ meanMs, usdPerMillionInvocations }) => `${meanMs.toFixed(0)} ms, $${usdPerMillionInvocations.toFixed(2)}`),
    ]),
    [
      'Each candidate: the mean billed duration at that memory and the Lambda compute it costs per million invocations (arm64).',
      'Measured on a loaded 2-core machine against DynamoDB Local: the wait includes turns on a busy core, so the best memory here is on the low side of what AWS would show.',
    ],
  );
};

const candidateColumns = (sizing: Record<string, Sizing>) => (Object.values(sizing)[0]?.candidates ?? []).map(({ memoryMb }) => `${memoryMb} MB`);
