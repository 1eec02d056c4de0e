import { CfnOutput, Duration, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import { accessOf } from './access';
import { OperationsAlarms } from './alarms';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type { Construct } from 'constructs';
import { ConsentApi } from './api';
import { breachQueues, ConsentTable, scanQueues, webhookQueues, type WorkQueue } from './data';
import { EvidenceKeys } from './evidence';
import { DocumentPrinter } from './document-printer';
import { TrackerScanner } from './scanner';
import { GroupFunctions, repoRoot, sweeperScheduleMinutes } from './functions';
import { WebAssets } from './web';
import { join } from 'node:path';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';

export const stackName = 'ConsentServiceStack';

/** The item types whose inserts the stream function receives: every type a stream consumer takes but deliveries. */
export const streamItemTypes = ['OutboxMail', 'OutboxEvent', 'WithdrawalRecord', 'ConsentRecord', 'LogDocument', 'CheckpointRequest'] as const;
/** Item types whose changes, not only inserts, a consumer takes: a guardian request's resend mails its new link (shared/children/requested.ts). */
export const streamChangedItemTypes = ['GuardianRequest'] as const;
/** Webhook deliveries reach it only as they succeed (inserted so, or changed to it by a retry): a breach.principals page is acknowledged. */
export const streamSucceededTypes = ['WebhookDelivery'] as const;
/** Rights requests reach it only as SUBMITTED (inserted so, or confirmed into it): the principal's activity (shared/retention/activity-consumer.ts). */
export const streamSubmittedTypes = ['RightsRequest'] as const;

const defaultMailFrom = 'no-reply@consent-service.example';
/** An email address given as CDK context (`-c name=address`), checked at synth; undefined when not given. */
const emailContext = (scope: Construct, name: string): string | undefined => {
  const value: unknown = scope.node.tryGetContext(name);
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(value)) throw new Error(`context ${name} must be an email address, got ${String(value)}`);
  return value;
};

/** Everything the service runs on: the table, the webhook queue, one Lambda per group, the HTTP API. */
export class ConsentServiceStack extends Stack {
  readonly data: ConsentTable;
  readonly evidence: EvidenceKeys;
  readonly queues: WorkQueue;
  readonly scanQueues: WorkQueue;
  readonly breachQueues: WorkQueue;
  readonly scanner: TrackerScanner;
  readonly documentPrinter: DocumentPrinter;
  readonly functions: GroupFunctions;
  readonly api: ConsentApi;
  readonly web: WebAssets;
  readonly alarms: OperationsAlarms;

  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);

    this.data = new ConsentTable(this, 'Data');
    this.queues = webhookQueues(this);
    this.scanQueues = scanQueues(this);
    this.breachQueues = breachQueues(this);
    this.evidence = new EvidenceKeys(this, 'Evidence');
    this.documentPrinter = new DocumentPrinter(this, 'DocumentPrinter');
    this.functions = new GroupFunctions(this, 'Functions', {
      documentPrinter: this.documentPrinter.printer,
      table: this.data.table,
      webhookQueue: this.queues.queue,
      scanQueue: this.scanQueues.queue,
      breachQueue: this.breachQueues.queue,
      // A verified SES identity of the deployer's: `cdk deploy -c mailFrom=no-reply@example.in`.
      mailFrom: emailContext(this, 'mailFrom') ?? defaultMailFrom,
      evidence: this.evidence,
    });
    this.api = new ConsentApi(this, 'Api', { functions: this.functions });

    // The table's stream, handed to its consumers (functions/stream/consumers.ts): outbox mail and
    // events, withdrawals to finish, new records and withdrawals for the evidence log and
    // consent.recorded, and breach.principals pages acknowledged by a webhook. Only the inserts of
    // those item types, and deliveries as they succeed, reach the function.
    const stream = this.functions.build('stream', join(repoRoot, 'functions', 'stream', 'handler.ts'), 'consent-service table stream consumers', accessOf('stream'));
    // Reading the stream needs dynamodb:ListStreams, which has no resource-level permissions.
    Validations.of(stream.role!).acknowledge({ id: 'AwsSolutions-IAM5[Resource::*]', reason: 'dynamodb:ListStreams, granted with the stream event source, has no resource-level permissions.' });
    stream.addEventSource(
      new DynamoEventSource(this.data.table, {
        startingPosition: lambda.StartingPosition.TRIM_HORIZON,
        // Under sustained traffic the sequencer gets a tenant's records 100 at a time: one log
        // transaction per 100 records (~0.4 WRU each) instead of per handful. Waiting at most a second
        // to fill a batch keeps records inside the 5 s integration target.
        batchSize: 100,
        maxBatchingWindow: Duration.seconds(1),
        // No retry limit: the evidence log must not skip a record. One tenant's failure is parked by
        // its consumer (functions/stream/consumers.ts) and retried apart, so only a failure of everything
        // (the table out of reach) fails a batch, which then holds its shard (IteratorAge grows; alarmed)
        // instead of being dropped.
        retryAttempts: -1,
        // A failed batch is reported from its first record, so the whole batch comes again.
        reportBatchItemFailures: true,
        filters: [
          lambda.FilterCriteria.filter({
            eventName: lambda.FilterRule.isEqual('INSERT'),
            dynamodb: { NewImage: { type: { S: lambda.FilterRule.or(...streamItemTypes) } } },
          }),
          lambda.FilterCriteria.filter({
            eventName: lambda.FilterRule.or('INSERT', 'MODIFY'),
            dynamodb: { NewImage: { type: { S: lambda.FilterRule.or(...streamChangedItemTypes) } } },
          }),
          lambda.FilterCriteria.filter({
            eventName: lambda.FilterRule.or('INSERT', 'MODIFY'),
            dynamodb: { NewImage: { type: { S: lambda.FilterRule.or(...streamSucceededTypes) }, status: { S: lambda.FilterRule.isEqual('SUCCESS') } } },
          }),
          lambda.FilterCriteria.filter({
            eventName: lambda.FilterRule.or('INSERT', 'MODIFY'),
            dynamodb: { NewImage: { type: { S: lambda.FilterRule.or(...streamSubmittedTypes) }, status: { S: lambda.FilterRule.isEqual('SUBMITTED') } } },
          }),
        ],
      }),
    );

    // Signs (and archives) the checkpoints of the logs that grew, at most every CHECKPOINT_INTERVAL_SECONDS per
    // tenant, after appending the entries the stream parked; reports checkpoint lag and parked tenants.
    const checkpointer = this.functions.build('checkpointer', join(repoRoot, 'functions', 'checkpointer', 'handler.ts'), 'consent-service evidence log checkpointer', accessOf('checkpointer'));
    new events.Rule(this, 'CheckpointSchedule', {
      description: 'Sign the evidence log checkpoints that are due',
      schedule: events.Schedule.rate(Duration.minutes(1)),
      targets: [new targets.LambdaFunction(checkpointer)],
    });

    // Retries what the stream's consumers parked for one tenant: outbox items and unfinished withdrawals.
    const streamSweeper = this.functions.build('stream-sweeper', join(repoRoot, 'functions', 'stream-sweeper', 'handler.ts'), 'consent-service stream leftovers sweeper', accessOf('stream-sweeper'));
    new events.Rule(this, 'StreamSweepSchedule', {
      description: 'Hand on the outbox items and finish the withdrawals the stream consumers left pending',
      schedule: events.Schedule.rate(Duration.minutes(1)),
      targets: [new targets.LambdaFunction(streamSweeper)],
    });

    // The webhook delivery worker: one attempt per message; retries come back through the queue.
    const deliveryWorker = this.functions.build('webhook-worker', join(repoRoot, 'functions', 'webhook-worker', 'handler.ts'), 'consent-service webhook delivery worker', accessOf('webhook-worker'));
    deliveryWorker.addEventSource(new SqsEventSource(this.queues.queue, { batchSize: 10, reportBatchItemFailures: true }));

    // The sweeper: re-queues deliveries whose queued attempt was lost (overdue by two minutes or more).
    const sweeper = this.functions.build('webhook-sweeper', join(repoRoot, 'functions', 'webhook-sweeper', 'handler.ts'), 'consent-service webhook delivery sweeper', accessOf('webhook-sweeper'));
    new events.Rule(this, 'WebhookSweepSchedule', {
      description: 'Re-queue overdue webhook deliveries',
      schedule: events.Schedule.rate(Duration.minutes(5)),
      targets: [new targets.LambdaFunction(sweeper)],
    });

    // A breach's principal intimation: one page or batch per message. Two at a time at most: a batch
    // queues up to 500 mails in the tenant's partition (docs/breaches.md: write units per key).
    const breachWorker = this.functions.build('breach-worker', join(repoRoot, 'functions', 'breach-worker', 'handler.ts'), 'consent-service breach intimation worker', accessOf('breach-worker'));
    breachWorker.addEventSource(new SqsEventSource(this.breachQueues.queue, { batchSize: 1, reportBatchItemFailures: true, maxConcurrency: 2 }));
    // Rights requests' due work: unconfirmed ones expire after a day, the DPO is reminded a week
    // before a due date and told when one is overdue (each mail once; the requests' due index).
    const rightsSweeper = this.functions.build('rights-sweeper', join(repoRoot, 'functions', 'rights-sweeper', 'handler.ts'), 'consent-service rights request due sweep', accessOf('rights-sweeper'));
    new events.Rule(this, 'RightsSweepSchedule', {
      description: 'Expire unconfirmed rights requests; remind the DPO of due and overdue ones; expire unanswered guardian requests; announce children coming of age',
      schedule: events.Schedule.rate(Duration.minutes(sweeperScheduleMinutes)),
      targets: [new targets.LambdaFunction(rightsSweeper)],
    });

    // The tracker scanner (a container image with Chromium) fed by the scan queue, and its scheduler.
    this.scanner = new TrackerScanner(this, 'Scanner', { table: this.data.table, queue: this.scanQueues.queue, functions: this.functions });

    // The widget, the withdrawal pages and the API under one CloudFront domain.
    this.web = new WebAssets(this, 'Web', { httpApi: this.api.httpApi });
    // Links the service mails (portalUrl, set-password) and the public notice's withdrawal route open the pages there.
    for (const fn of this.functions.byName.values()) {
      fn.addEnvironment('PORTAL_BASE_URL', `${this.web.baseUrl}/portal`);
      fn.addEnvironment('DASHBOARD_BASE_URL', `${this.web.baseUrl}/dashboard`);
    }

    // Operators are told: the stream's lag, dead letters, function errors and throttles, checkpoint lag, parked tenants.
    this.alarms = new OperationsAlarms(this, 'Alarms', {
      functions: new Map([...this.functions.byName, ['scanner', this.scanner.scanner], ['document-printer', this.documentPrinter.printer]]),
      streamFunction: stream,
      deadLetterQueues: new Map([
        ['WebhookDeliveries', this.queues.deadLetterQueue],
        ['TrackerScans', this.scanQueues.deadLetterQueue],
      ]),
      // `cdk deploy -c alarmEmail=ops@example.in` subscribes that address (it must confirm).
      alarmEmail: emailContext(this, 'alarmEmail'),
    });

    new CfnOutput(this, 'WidgetUrl', { description: 'The embed script (cached 5 minutes)', value: `${this.web.baseUrl}/widget/v1/cms.js` });
    new CfnOutput(this, 'PortalBaseUrl', { description: 'Withdrawal pages', value: `${this.web.baseUrl}/portal` });
    new CfnOutput(this, 'DashboardUrl', { description: 'The DPO dashboard', value: `${this.web.baseUrl}/dashboard/` });
    new CfnOutput(this, 'ApiUrl', {
      description: 'Base URL of the HTTP API',
      value: this.api.httpApi.apiEndpoint,
    });
    new CfnOutput(this, 'TableName', { value: this.data.table.tableName });
    new CfnOutput(this, 'WebhookQueueUrl', { value: this.queues.queue.queueUrl });
    new CfnOutput(this, 'AlarmTopicArn', { description: 'Every alarm of the stack is published here: subscribe the on-call', value: this.alarms.topic.topicArn });
  }
}
