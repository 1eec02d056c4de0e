import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamsRecord,
  type Shard,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { localCredentials } from './credentials';
import { config } from '../../shared/config';
import { onLocalWrite } from '../../shared/db/client';
import { describeError, log } from '../../shared/log';
import { changeOf, type StreamChange } from '../../shared/stream/change';
import { streamConsumers } from '../../functions/stream/consumers';
import type { StreamConsumer } from '../../shared/stream/consumer';
import { dispatchChanges } from '../../shared/stream/dispatch';

/**
 * The local stand-in for the stream function's event source mapping: reads DynamoDB Local's own
 * stream of the table (the DynamoDB Streams API on its endpoint) and hands every GetRecords batch
 * to the same consumers as functions/stream does in AWS. Every shard is followed from its trim
 * horizon, a child shard only once its parent is read to its end; a batch whose dispatch fails is
 * dispatched again after `idleMs` until it succeeds, so nothing is skipped (consumers are idempotent).
 */
export interface StreamReaderOptions {
  /** Wait between empty polls while the stream is busy, and before retrying a failed batch. */
  idleMs: number;
  /**
   * Wait between empty polls once nothing has been read or written for a second (idleMs by
   * default). A write through this process's clients (shared/db/client.ts, onLocalWrite) ends the
   * rest at once, so only writes made elsewhere (another process, a bundle's own client) wait
   * for it: polling twenty times a second was most of what an idle test file's workers cost
   * DynamoDB Local.
   */
  restMs?: number;
  /**
   * Records the stream made before this are read but not dispatched (the stream keeps 24 h). The
   * stream's timestamps are coarse (DynamoDB Local's are whole minutes), so records up to a
   * minute older may still be dispatched; consumers are idempotent.
   */
  since?: Date;
  /** The consumers batches go to; the registry by default. */
  consumers?: StreamConsumer[];
  /**
   * The stream function's handler, given each batch as Lambda's event instead of the consumers
   * (the bundle of functions/stream, CMS_FUNCTIONS=bundles): a batch it reports failed is retried.
   */
  handler?: (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse>;
  /**
   * Which changes this reader hands on (all by default). Test files share one table and each runs
   * its own reader: each hands on only its own tenants' changes, so a test that stages a crash is
   * not finished behind its back by another file's workers.
   */
  accept?: (change: StreamChange) => boolean;
  /**
   * Where readers left off, as an event source mapping keeps it: the last record handled per shard.
   * A reader given the position of a stopped one resumes right after it (`since` then applies
   * only to shards it has no position for), and records its own progress there.
   */
  position?: StreamPosition;
  /**
   * Where to begin a shard this reader has no position for, instead of its trim horizon: the last
   * sequence number of records all made before `since`, so skipping them loses nothing this reader
   * would hand on. Test files share one stream that grows through the run; each new file's reader
   * starts after what earlier files had read (tests/support/stream-board.ts) instead of reading
   * the whole run's stream again.
   */
  startAfter?: ReadonlyMap<string, string>;
}

/** The last sequence number handled, by `<stream ARN>/<shard id>`. */
export type StreamPosition = Map<string, string>;

/** The same endpoint, region and credentials as the table's client (shared/db/client.ts). */
const clientOptions = () => {
  const endpoint = config.dynamodbEndpoint;
  return { region: config.region, ...(endpoint ? { endpoint, credentials: localCredentials } : {}) };
};

const errorName = (error: unknown): string | undefined => (error as { name?: string } | null)?.name;

/**
 * GetRecords' record as Lambda's event carries it (creation time in epoch seconds). Binary
 * attributes stay bytes here; changeOf takes them either way.
 */
const lambdaRecordOf = (record: StreamsRecord): DynamoDBRecord =>
  ({
    eventID: record.eventID,
    eventName: record.eventName,
    eventSource: record.eventSource,
    eventVersion: record.eventVersion,
    awsRegion: record.awsRegion,
    dynamodb: {
      ...record.dynamodb,
      ApproximateCreationDateTime: record.dynamodb?.ApproximateCreationDateTime && record.dynamodb.ApproximateCreationDateTime.getTime() / 1000,
    },
  }) as DynamoDBRecord;

export const startStreamReader = (options: StreamReaderOptions): { lagSeconds(): number; stop(): Promise<void> } => {
  const { idleMs, restMs = idleMs, since, consumers = streamConsumers, position = new Map<string, string>(), accept = () => true, startAfter, handler } = options;
  const dispatch = async (records: DynamoDBRecord[]): Promise<void> => {
    if (!handler) return dispatchChanges(records.map(changeOf).filter(accept), consumers);
    const kept = records.filter((record) => accept(changeOf(record)));
    if (kept.length === 0) return;
    const { batchItemFailures } = await handler({ Records: kept });
    if (batchItemFailures.length > 0) throw new Error(`the stream function reported ${batchItemFailures.length} failed record(s)`);
  };
  const tables = new DynamoDBClient(clientOptions());
  const streams = new DynamoDBStreamsClient(clientOptions());
  // DynamoDB Local stamps records down to the minute (AWS to the second): every record of the
  // minute `since` falls in is kept, so none made after `since` is skipped.
  const sinceMs = since === undefined ? undefined : Math.floor(since.getTime() / 60_000) * 60_000;
  let running = true;
  const wakers = new Set<() => void>();
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      wakers.add(wake);
    });
  const wakeAll = () => [...wakers].forEach((wake) => wake());

  /**
   * Whether a record is this reader's work: one it hands on (`accept`) to a consumer of its type
   * and event, or to the stream function's handler. Test files share one stream: another file's
   * records keep the stream busy, but they never keep this reader from its rest.
   */
  const isWork = (record: StreamsRecord): boolean => {
    const change = changeOf(lambdaRecordOf(record));
    if (!accept(change)) return false;
    if (handler) return true;
    const type = String((change.newImage ?? change.oldImage)?.type);
    return consumers.some((consumer) => consumer.eventNames.includes(change.eventName) && consumer.itemTypes.includes(type));
  };

  /** Busy until a second after the last record of its work or write cued; resting after that. */
  const busyMs = 1000;
  let busyUntil = Date.now() + busyMs;
  const resters = new Set<() => void>();
  /** The wait after an empty poll: idleMs while busy, restMs after, ended early by a cue. */
  const rest = (): Promise<void> => {
    if (Date.now() < busyUntil) return sleep(idleMs);
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        resters.delete(done);
        wakers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, restMs);
      resters.add(done);
      wakers.add(done);
    });
  };
  const stopCue = onLocalWrite(() => {
    busyUntil = Date.now() + busyMs;
    [...resters].forEach((done) => done());
  });

  const wanted = (record: StreamsRecord): boolean => {
    const created = record.dynamodb?.ApproximateCreationDateTime;
    return sinceMs === undefined || created === undefined || created.getTime() >= sinceMs;
  };

  /** When the oldest record each shard is handling was made: the local iterator age. */
  const inHand = new Map<string, Date>();

  /** Dispatches one batch until it succeeds or the reader stops; returns whether it was handled. */
  const handleBatch = async (shard: string, records: StreamsRecord[], resumed: boolean): Promise<boolean> => {
    const kept = resumed ? records : records.filter(wanted);
    if (kept.length === 0) return true;
    inHand.set(shard, kept[0]!.dynamodb?.ApproximateCreationDateTime ?? new Date());
    try {
      while (running) {
        try {
          await dispatch(kept.map(lambdaRecordOf));
          return true;
        } catch (error) {
          log.error('stream batch failed; retrying it', { records: kept.length, first: kept[0]!.dynamodb?.SequenceNumber, ...describeError(error) });
          await sleep(idleMs);
        }
      }
      return false;
    } finally {
      inHand.delete(shard);
    }
  };

  // The table's stream, asked again every 30 s: DescribeTable costs DynamoDB Local about as much
  // as four queries, and its answer changes only if the table or its stream is made anew.
  let table: { streamArn: string | undefined; at: number } | undefined;
  const streamArnOf = async (): Promise<string | undefined> => {
    if (!table || Date.now() - table.at > 30_000) {
      const { Table } = await tables.send(new DescribeTableCommand({ TableName: config.tableName }));
      table = { streamArn: Table?.LatestStreamArn, at: Date.now() };
    }
    return table.streamArn;
  };

  /** Reads one shard to its end (a closed shard's last NextShardIterator is null) or until stopped. */
  const follow = async (streamArn: string, shardId: string): Promise<void> => {
    const key = `${streamArn}/${shardId}`;
    const resumed = position.has(key);
    let lastSequence = position.get(key);
    let skipTo = resumed ? undefined : startAfter?.get(key);
    // After an expired iterator (or a restart of this shard's follower) reading resumes right after the last handled record.
    const acquire = async (): Promise<string | undefined> => {
      const after = lastSequence ?? skipTo;
      try {
        const { ShardIterator } = await streams.send(
          new GetShardIteratorCommand({
            StreamArn: streamArn,
            ShardId: shardId,
            ...(after ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: after } : { ShardIteratorType: 'TRIM_HORIZON' }),
          }),
        );
        return ShardIterator;
      } catch (error) {
        // A starting point the stream no longer holds (trimmed) is dropped: the shard is read from its trim horizon.
        if (after === skipTo && after !== undefined) skipTo = undefined;
        throw error;
      }
    };
    let iterator: string | undefined;
    while (running) {
      try {
        iterator ??= await acquire();
        if (!iterator) return;
        const { Records = [], NextShardIterator } = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }));
        if (Records.length > 0) {
          if (Records.some(isWork)) busyUntil = Date.now() + busyMs;
          if (!(await handleBatch(key, Records, resumed))) return;
          lastSequence = Records.at(-1)!.dynamodb?.SequenceNumber ?? lastSequence;
          if (lastSequence) position.set(key, lastSequence);
        }
        if (!NextShardIterator) return;
        iterator = NextShardIterator;
        if (Records.length === 0) await rest();
      } catch (error) {
        if (errorName(error) === 'ResourceNotFoundException') {
          table = undefined;
          return;
        }
        if (errorName(error) !== 'ExpiredIteratorException') {
          log.error('stream shard read failed; retrying', { shardId, ...describeError(error) });
          await sleep(idleMs);
        }
        iterator = undefined;
      }
    }
  };

  const shardsOf = async (streamArn: string): Promise<Shard[]> => {
    const shards: Shard[] = [];
    let ExclusiveStartShardId: string | undefined;
    do {
      const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn, ExclusiveStartShardId }));
      shards.push(...(StreamDescription?.Shards ?? []));
      ExclusiveStartShardId = StreamDescription?.LastEvaluatedShardId;
    } while (ExclusiveStartShardId);
    return shards;
  };

  const followers = new Map<string, Promise<void>>();
  const done = new Set<string>();

  /** Finds the table's stream and starts a follower for each shard that may be read now. */
  const discover = async () => {
    const streamArn = await streamArnOf();
    if (!streamArn) return;
    const shards = await shardsOf(streamArn);
    const known = new Set(shards.map((shard) => shard.ShardId));
    for (const shard of shards) {
      const key = `${streamArn}/${shard.ShardId}`;
      if (!shard.ShardId || done.has(key) || followers.has(key)) continue;
      // A parent trimmed from the stream is gone; one still listed is read first.
      const parent = shard.ParentShardId;
      if (parent && known.has(parent) && !done.has(`${streamArn}/${parent}`)) continue;
      followers.set(
        key,
        follow(streamArn, shard.ShardId).finally(() => {
          followers.delete(key);
          if (running) {
            done.add(key);
            wakeAll();
          }
        }),
      );
    }
  };

  const coordinator = (async () => {
    while (running) {
      try {
        await discover();
      } catch (error) {
        table = undefined;
        log.error('stream discovery failed; retrying', describeError(error));
      }
      // New shards are rare (a closed shard's follower wakes this loop when it ends).
      if (running) await sleep(Math.max(idleMs, Date.now() < busyUntil ? 1000 : restMs * 4));
    }
  })();

  return {
    /**
     * Seconds since the oldest record still being handled was made (0 when idle): what Lambda's
     * IteratorAge reports in AWS. DynamoDB Local stamps records to the minute, so this may read up
     * to a minute high.
     */
    lagSeconds: () => Math.max(0, ...[...inHand.values()].map((created) => Math.round((Date.now() - created.getTime()) / 1000))),
    stop: async () => {
      running = false;
      stopCue();
      wakeAll();
      await coordinator;
      await Promise.all(followers.values());
      tables.destroy();
      streams.destroy();
    },
  };
};
