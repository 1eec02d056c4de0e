import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  type GlobalSecondaryIndex,
} from '@aws-sdk/client-dynamodb';
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { localCredentials } from './credentials';
import { tableDefinition } from '../../shared/db/table';
import { queueDefinitions } from '../../shared/queues';

const indexSpec = (index: (typeof tableDefinition.indexes)[number]): GlobalSecondaryIndex => ({
  IndexName: index.name,
  KeySchema: [
    { AttributeName: index.partitionKey, KeyType: 'HASH' },
    { AttributeName: index.sortKey, KeyType: 'RANGE' },
  ],
  Projection: { ProjectionType: 'ALL' },
});

/** As in AWS (infra/data.ts): the stream the local stream reader feeds the stream consumers from. */
const streamSpecification = { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' } as const;

/** A table kept in .data from an older version gets the indexes added since, one at a time. */
const addMissingIndexes = async (client: DynamoDBClient, tableName: string, present: string[]) => {
  for (const index of tableDefinition.indexes.filter((candidate) => !present.includes(candidate.name))) {
    await client.send(
      new UpdateTableCommand({
        TableName: tableName,
        AttributeDefinitions: [
          { AttributeName: index.partitionKey, AttributeType: 'S' },
          { AttributeName: index.sortKey, AttributeType: 'S' },
        ],
        GlobalSecondaryIndexUpdates: [{ Create: indexSpec(index) }],
      }),
    );
  }
};

/** Creates the single table from `tableDefinition` unless it exists; returns whether it was created. */
export const ensureTable = async (endpoint: string, tableName: string): Promise<boolean> => {
  const client = new DynamoDBClient({ endpoint, region: 'local', credentials: localCredentials });
  try {
    const existing = await client.send(new DescribeTableCommand({ TableName: tableName })).catch((error: { name?: string }) => {
      if (error.name === 'ResourceNotFoundException') return undefined;
      throw error;
    });
    if (existing) {
      await addMissingIndexes(client, tableName, existing.Table?.GlobalSecondaryIndexes?.map((index) => String(index.IndexName)) ?? []);
      // A table kept from before the stream reader (infra/local/stream-reader.ts) gets its stream.
      if (!existing.Table?.StreamSpecification?.StreamEnabled) {
        await client.send(new UpdateTableCommand({ TableName: tableName, StreamSpecification: streamSpecification }));
      }
      return false;
    }
    const keyAttributes = [
      tableDefinition.partitionKey,
      tableDefinition.sortKey,
      ...tableDefinition.indexes.flatMap((index) => [index.partitionKey, index.sortKey]),
    ];
    const indexes = tableDefinition.indexes.map(indexSpec);
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: keyAttributes.map((name) => ({ AttributeName: name, AttributeType: 'S' })),
        KeySchema: [
          { AttributeName: tableDefinition.partitionKey, KeyType: 'HASH' },
          { AttributeName: tableDefinition.sortKey, KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: indexes,
        StreamSpecification: streamSpecification,
      }),
    );
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: tableDefinition.ttlAttribute, Enabled: true },
      }),
    );
    return true;
  } finally {
    client.destroy();
  }
};

/** Creates every queue of `queueDefinitions` with its dead-letter queue; returns name → URL. */
export const ensureQueues = async (endpoint: string): Promise<Record<string, string>> => {
  const client = new SQSClient({ endpoint, region: 'us-east-1', credentials: localCredentials });
  try {
    const urls: Record<string, string> = {};
    for (const queue of Object.values(queueDefinitions)) {
      const dlq = await client.send(new CreateQueueCommand({ QueueName: queue.deadLetterName }));
      const { Attributes } = await client.send(
        new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] }),
      );
      const main = await client.send(
        new CreateQueueCommand({
          QueueName: queue.name,
          Attributes: {
            RedrivePolicy: JSON.stringify({ deadLetterTargetArn: Attributes?.QueueArn, maxReceiveCount: queue.maxReceiveCount }),
          },
        }),
      );
      urls[queue.name] = String(main.QueueUrl);
      urls[queue.deadLetterName] = String(dlq.QueueUrl);
    }
    return urls;
  } finally {
    client.destroy();
  }
};
