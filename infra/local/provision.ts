import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  UpdateTimeToLiveCommand,
  type GlobalSecondaryIndex,
} from '@aws-sdk/client-dynamodb';
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { tableDefinition } from '../../shared/db/table';
import { queueDefinitions } from '../../shared/queues';

const localCredentials = { accessKeyId: 'local', secretAccessKey: 'local' };

/** Creates the single table from `tableDefinition` unless it exists; returns whether it was created. */
export const ensureTable = async (endpoint: string, tableName: string): Promise<boolean> => {
  const client = new DynamoDBClient({ endpoint, region: 'local', credentials: localCredentials });
  try {
    try {
      await client.send(new DescribeTableCommand({ TableName: tableName }));
      return false;
    } catch (error) {
      if ((error as { name?: string }).name !== 'ResourceNotFoundException') throw error;
    }
    const keyAttributes = [
      tableDefinition.partitionKey,
      tableDefinition.sortKey,
      ...tableDefinition.indexes.flatMap((index) => [index.partitionKey, index.sortKey]),
    ];
    const indexes: GlobalSecondaryIndex[] = tableDefinition.indexes.map((index) => ({
      IndexName: index.name,
      KeySchema: [
        { AttributeName: index.partitionKey, KeyType: 'HASH' },
        { AttributeName: index.sortKey, KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'ALL' },
    }));
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
