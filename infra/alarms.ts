import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { config } from '../shared/config';
import { metricNamespace, metricNames } from '../shared/metrics';
import { pascal } from './functions';

export interface OperationsAlarmsProps {
  /** Every function of the stack, by name: each gets an errors and a throttles alarm. */
  functions: ReadonlyMap<string, lambda.IFunction>;
  /** The table stream's consumer: its iterator age says how far the stream is behind. */
  streamFunction: lambda.IFunction;
  /** Every dead-letter queue, by name. */
  deadLetterQueues: ReadonlyMap<string, sqs.IQueue>;
  /** Subscribed to the topic by email when given (`cdk deploy -c alarmEmail=ops@example.in`). */
  alarmEmail?: string;
}

/**
 * Who is told when evidence or delivery stops: every alarm goes to one SNS topic (encrypted with
 * its own KMS key, which CloudWatch may use to publish; TLS only), which the stack outputs as
 * AlarmTopicArn. The alarms: the stream's iterator age (a batch failing for everyone holds the
 * shard), every dead-letter queue's depth, each function's errors and throttles, and the service's
 * own metrics (shared/metrics.ts): checkpoint lag, parked tenants and a consumer parking a tenant.
 * Thresholds come from shared/config/operations.ts (alarmThresholds), which the local workers warn at too.
 */
export class OperationsAlarms extends Construct {
  readonly topic: sns.Topic;
  readonly alarms = new Map<string, cloudwatch.Alarm>();

  constructor(scope: Construct, id: string, props: OperationsAlarmsProps) {
    super(scope, id);
    const thresholds = config.alarmThresholds;
    const key = new kms.Key(this, 'AlarmTopicKey', { description: 'Encrypts the consent service alarm topic', enableKeyRotation: true });
    // CloudWatch publishes to the encrypted topic only if it may use the key.
    key.addToResourcePolicy(
      new iam.PolicyStatement({ principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')], actions: ['kms:Decrypt', 'kms:GenerateDataKey*'], resources: ['*'] }),
    );
    this.topic = new sns.Topic(this, 'AlarmTopic', { displayName: 'Consent service alarms', masterKey: key, enforceSSL: true });
    if (props.alarmEmail) this.topic.addSubscription(new subscriptions.EmailSubscription(props.alarmEmail));
    const notify = new actions.SnsAction(this.topic);

    const alarm = (name: string, metric: cloudwatch.IMetric, threshold: number, description: string, treatMissingData = cloudwatch.TreatMissingData.NOT_BREACHING) => {
      const created = new cloudwatch.Alarm(this, name, {
        metric,
        threshold,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData,
        alarmDescription: description,
      });
      created.addAlarmAction(notify);
      created.addOkAction(notify);
      this.alarms.set(name, created);
    };
    const own = (metricName: string, statistic: string) => new cloudwatch.Metric({ namespace: metricNamespace, metricName, statistic, period: Duration.minutes(5) });

    alarm(
      'StreamIteratorAge',
      props.streamFunction.metric('IteratorAge', { statistic: 'Maximum', period: Duration.minutes(1) }),
      thresholds.streamIteratorAgeSeconds * 1000,
      'The table stream is behind: a batch keeps failing for every tenant (the table or a service out of reach), so records wait to be logged, mails and webhooks to be sent.',
    );
    for (const [name, queue] of props.deadLetterQueues) {
      alarm(
        `${name}DeadLetters`,
        queue.metricApproximateNumberOfMessagesVisible({ statistic: 'Maximum', period: Duration.minutes(5) }),
        thresholds.deadLetterMessages,
        `Messages in the ${name} dead-letter queue: work that failed every attempt.`,
      );
    }
    for (const [name, fn] of props.functions) {
      const id = pascal(name);
      alarm(`${id}Errors`, fn.metricErrors({ statistic: 'Sum', period: Duration.minutes(5) }), 1, `The ${name} function failed (an unhandled error or a timeout).`);
      alarm(`${id}Throttles`, fn.metricThrottles({ statistic: 'Sum', period: Duration.minutes(5) }), 1, `The ${name} function was throttled (account or reserved concurrency).`);
    }
    alarm(
      'CheckpointLag',
      own(metricNames.checkpointLag, 'Maximum'),
      thresholds.checkpointLagSeconds,
      'Evidence has waited too long for a signed checkpoint: a tenant whose checkpoint is refused or cannot be archived, parked log entries, or a checkpointer that does not run (no data is treated as breaching).',
      cloudwatch.TreatMissingData.BREACHING,
    );
    alarm('ParkedTenants', own(metricNames.parkedTenants, 'Maximum'), thresholds.parkedTenants, "Tenants' log entries are parked after a failure: their log is not growing until the cause is fixed.");
    alarm('StreamTenantFailures', own(metricNames.streamTenantFailures, 'Sum'), 1, "A stream consumer failed for one tenant and parked its changes (the log line 'stream consumer failed for one tenant' says which).");
  }
}
