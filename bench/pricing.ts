import { accessesOf, combine, totalCalls, type Work } from './meter';

/** Prices in USD (the brief's list prices): per million requests or units, and per GB-second. */
export const rates = {
  apiGatewayPerMillion: 1.0,
  lambdaRequestPerMillion: 0.2,
  /** arm64 (Graviton), what the stack deploys; x86 is 0.0000166667. */
  lambdaGbSecond: 0.0000133334,
  writeUnitPerMillion: 0.625,
  readUnitPerMillion: 0.125,
  sqsRequestPerMillion: 0.4,
};

/**
 * CloudFront on-demand in India, where an Indian visitor's requests are served: data transfer out
 * to the internet (the first 10 TB of a month; each later tier is cheaper) and HTTPS requests
 * (GET and HEAD), from aws.amazon.com/cloudfront/pricing as read on 2026-11-28. A GB here is
 * 10^9 bytes, the higher of the two readings. Origin fetches from AWS origins are free; the
 * always-free allowance (1 TB and 10 million requests a month) is left out, as a large site
 * spends it in days.
 */
export const cloudFrontIndia = {
  httpsRequestPerTenThousand: 0.012,
  dataTransferOutPerGb: 0.109,
  readOn: '2026-11-28',
  source: 'https://aws.amazon.com/cloudfront/pricing/ (on-demand, India)',
};

/** What CloudFront bills for one answer of `bytes` (headers and body) to a viewer in India. */
export const cloudFrontUsd = (bytes: number): { requests: number; dataTransfer: number } => ({
  requests: cloudFrontIndia.httpsRequestPerTenThousand / 10_000,
  dataTransfer: (bytes / 1e9) * cloudFrontIndia.dataTransferOutPerGb,
});

/** Lambda's CPU share grows with memory: a full vCPU at 1,769 MB; a Node handler uses one thread, so no more. */
export const fullCpuMemoryMb = 1769;

/**
 * One invocation's duration at `memoryMb`, from what was measured here on a whole core: its CPU
 * time stretched by the share of a vCPU that memory buys, plus the time it waited (on DynamoDB,
 * SQS, the receiver: measured on loopback, and on a loaded machine also for its turn on a core, so
 * on the high side), rounded up to a whole millisecond as Lambda bills it.
 */
export const durationAt = (memoryMb: number, measured: Invocation): number =>
  Math.ceil(Math.max(0, measured.ms - measured.cpuMs) + measured.cpuMs * Math.max(1, fullCpuMemoryMb / memoryMb));

/** What was measured of one invocation: wall time and this process's CPU time meanwhile. */
export interface Invocation {
  ms: number;
  cpuMs: number;
}

/** One Lambda's (or the SQS poller's) share of a consent: invocations, billed milliseconds at its memory, and work. */
export interface Stage {
  invocations: number;
  billedMs: number;
  memoryMb: number;
  /** Measured here per consent: wall time and CPU time (billedMs is derived from them, durationAt). */
  localMs: number;
  cpuMs: number;
  work: Work;
}

/** What a stage added up to over a run, before it is divided by the consents. */
export interface Tally {
  invocations: Invocation[];
  works: Work[];
}

export const tally = (): Tally => ({ invocations: [], works: [] });

/** One invocation with what it did. */
export const billed = (stage: Tally, measured: Invocation, work: Work): void => {
  stage.invocations.push({ ms: measured.ms, cpuMs: measured.cpuMs });
  stage.works.push(work);
};

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

export const perConsentStage = (stage: Tally, consents: number, memoryMb: number): Stage => ({
  invocations: stage.invocations.length / consents,
  billedMs: sum(stage.invocations.map((invocation) => durationAt(memoryMb, invocation))) / consents,
  memoryMb,
  localMs: sum(stage.invocations.map(({ ms }) => ms)) / consents,
  cpuMs: sum(stage.invocations.map(({ cpuMs }) => cpuMs)) / consents,
  work: combine(stage.works, 1 / consents),
});

export interface Price {
  lambdaInvocations: number;
  gbSeconds: number;
  rru: number;
  wru: number;
  /** Write units as DynamoDB Local reported them (it undercounts multi-item transactions). */
  wruLocal: number;
  sqsRequests: number;
  usd: { apiGateway: number; lambdaRequests: number; lambdaCompute: number; dynamodbWrites: number; dynamodbReads: number; sqs: number; total: number };
}

/** USD per million consents of per-consent stages; the SQS poller's calls count as requests, not invocations. */
export const priceOf = (stages: Record<string, Stage>): Price => {
  const all = Object.values(stages);
  const work = combine(all.map((stage) => stage.work));
  const lambdaInvocations = Object.entries(stages).reduce((sum, [name, stage]) => (name === 'sqsPolling' ? sum : sum + stage.invocations), 0);
  const gbSeconds = all.reduce((sum, stage) => sum + (stage.memoryMb / 1024) * (stage.billedMs / 1000), 0);
  const sqsRequests = totalCalls(work.sqs);
  const usd = {
    apiGateway: rates.apiGatewayPerMillion,
    lambdaRequests: lambdaInvocations * rates.lambdaRequestPerMillion,
    lambdaCompute: gbSeconds * 1e6 * rates.lambdaGbSecond,
    dynamodbWrites: work.wru * rates.writeUnitPerMillion,
    dynamodbReads: work.rru * rates.readUnitPerMillion,
    sqs: sqsRequests * rates.sqsRequestPerMillion,
  };
  const total = Object.values(usd).reduce((sum, value) => sum + value, 0);
  return { lambdaInvocations, gbSeconds, rru: work.rru, wru: work.wru, wruLocal: work.wruLocal, sqsRequests, usd: { ...usd, total } };
};

/** Floor: one API request, one Lambda invocation billed 1 ms, one 1 KB write. */
export const floorOf = (memoryMb: number) => {
  const usd = {
    apiGateway: rates.apiGatewayPerMillion,
    lambdaRequests: rates.lambdaRequestPerMillion,
    lambdaCompute: (memoryMb / 1024) * 0.001 * 1e6 * rates.lambdaGbSecond,
    dynamodbWrites: rates.writeUnitPerMillion,
  };
  return { ...usd, total: Object.values(usd).reduce((sum, value) => sum + value, 0) };
};

/** Where a consent's write units go, by what the access writes (its command and key shapes, meter.ts). */
const categories: [string, RegExp][] = [
  ['rate limit', /^UpdateItem RATE\//],
  ['monthly volume', /^UpdateItem TENANT\/VOLUME/],
  ['sequencer transaction', /^TransactWriteItems \[Update LOG\/HEAD/],
  // The log's layout of i25-scale: batches (SEQ), map fragments (LOG#<tid>#MAP#<bucket>, numeric sort key), counters with the day's count.
  ['log batch', /^PutItem LOG\/SEQ/],
  ['log map fragment', /^PutItem LOG\/N/],
  ['counters', /^UpdateItem TENANT\/CONSENTSTATS/],
  ['tiles', /^PutItem LOG\/TILE/],
  ['head', /^UpdateItem LOG\/HEAD/],
  ['checkpoint', /LOG\/CKPT/],
  ['webhook delivery', /DELIVERY|CLAIM/],
];

/**
 * Write units per consent by category. The record's Put is split into the table and the indexes
 * it is written to: only the record carries index keys among sdk-record's writes, so the
 * request's index units are the record's.
 */
export const unitBreakdown = (stages: Record<string, Stage>): Record<string, number> => {
  const breakdown: Record<string, number> = {};
  const add = (name: string, units: number) => (breakdown[name] = (breakdown[name] ?? 0) + units);
  for (const [name, stage] of Object.entries(stages)) {
    for (const { access, units, unit } of accessesOf(stage.work)) {
      if (unit !== 'WRU' || units === 0) continue;
      if (name === 'sdkRecord' && /^PutItem (TENANT|REC)\/RECORD/.test(access)) {
        const indexUnits = Object.entries(stage.work.wruBy).filter(([target]) => target !== 'table');
        for (const [index, value] of indexUnits) add(`record ${index}`, value);
        add('record', units - indexUnits.reduce((sum, [, value]) => sum + value, 0));
        continue;
      }
      add(categories.find(([, pattern]) => pattern.test(access))?.[0] ?? `other: ${access}`, units);
    }
  }
  return breakdown;
};
