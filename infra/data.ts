import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { tableDefinition } from '../shared/db/table';
import { queueDefinitions } from '../shared/queues';
import { scanBudget } from '../shared/scanner/budget';

/** Every key attribute of the single table holds a string. */
const stringKey = (name: string): dynamodb.Attribute => ({ name, type: dynamodb.AttributeType.STRING });

/** The single table, built from `tableDefinition` so key and index names live in one place. */
export class ConsentTable extends Construct {
  readonly table: dynamodb.Table;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.table = new dynamodb.Table(this, 'Table', {
      partitionKey: stringKey(tableDefinition.partitionKey),
      sortKey: stringKey(tableDefinition.sortKey),
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: tableDefinition.ttlAttribute,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
      // Later issues drain a transactional outbox from the stream.
      stream: dynamodb.StreamViewType.NEW_AND_OLD_IMAGES,
    });
    for (const index of tableDefinition.indexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: stringKey(index.partitionKey),
        sortKey: stringKey(index.sortKey),
        projectionType: dynamodb.ProjectionType.ALL,
      });
    }
  }
}

/**
 * A work queue with its dead-letter queue, as `queueDefinitions` (shared with the local stack)
 * declares it: SQS-managed encryption, TLS only, the DLQ keeping messages 14 days.
 */
export class WorkQueue extends Construct {
  readonly queue: sqs.Queue;
  readonly deadLetterQueue: sqs.Queue;

  constructor(scope: Construct, id: string, props: { definition: { maxReceiveCount: number }; queueId: string; visibilityTimeout: Duration }) {
    super(scope, id);
    this.deadLetterQueue = new sqs.Queue(this, `${props.queueId}Dlq`, {
      retentionPeriod: Duration.days(14),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    this.queue = new sqs.Queue(this, props.queueId, {
      visibilityTimeout: props.visibilityTimeout,
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: props.definition.maxReceiveCount },
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
  }
}

/** `webhook-deliveries`: one message per delivery attempt; poison messages land in the DLQ after 5 receives. */
export const webhookQueues = (scope: Construct) =>
  new WorkQueue(scope, 'Webhooks', { definition: queueDefinitions.webhookDeliveries, queueId: 'WebhookDeliveries', visibilityTimeout: Duration.seconds(60) });

/**
 * `tracker-scans`: one message per scan-now or scheduled run. Hidden for longer than the scanner's
 * timeout, so a message is never handed to a second scanner while the first still runs; after
 * two receives (the second one closes a run whose scanner died) it goes to the DLQ.
 */
export const scanQueues = (scope: Construct) =>
  new WorkQueue(scope, 'TrackerScans', {
    definition: queueDefinitions.trackerScans,
    queueId: 'TrackerScans',
    visibilityTimeout: Duration.seconds(scanBudget.lambdaTimeoutSeconds + 60),
  });

/**
 * `breach-intimations`: one message per resolution page or batch of principals (a batch is at
 * most 500 principals, seconds of work); hidden 60 s, four times the worker's timeout, and after 5
 * receives in the DLQ (a stalled intimation is resumed by calling it again).
 */
export const breachQueues = (scope: Construct) =>
  new WorkQueue(scope, 'BreachIntimations', { definition: queueDefinitions.breachIntimations, queueId: 'BreachIntimations', visibilityTimeout: Duration.seconds(60) });
