import { Duration, Size } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import { Platform } from 'aws-cdk-lib/aws-ecr-assets';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { join } from 'node:path';
import { scanBudget } from '../shared/scanner/budget';
import { accessOf } from './access';
import { functionIdentity, repoRoot, type GroupFunctions } from './functions';

export interface TrackerScannerProps {
  table: dynamodb.ITable;
  queue: sqs.IQueue;
  functions: GroupFunctions;
}

/** What the image build needs from the repository: sources, the lock file, the cookie database. */
export const scannerImageExcludes = ['node_modules', 'cdk.out', '.data', '.git', 'bench/results', 'tests', 'web'];

/**
 * The tracker scanner: headless Chromium needs more than a zip Lambda allows, so it is a container
 * image (functions/scanner/Dockerfile). `cdk synth` only stages the build context and records the
 * asset; Docker runs when the asset is published (`cdk deploy`), so synth needs no Docker.
 * Reserved concurrency caps the cost (and the load on tenants' sites); the scheduler queues due
 * scheduled scans once an hour.
 */
export class TrackerScanner extends Construct {
  readonly scanner: lambda.DockerImageFunction;

  constructor(scope: Construct, id: string, props: TrackerScannerProps) {
    super(scope, id);
    // Registry, runs and the outbox mail are table items: the same identity as every function.
    const { logGroup, role } = functionIdentity(this, 'Scanner', 'consent-service tracker scanner', props.table);
    this.scanner = new lambda.DockerImageFunction(this, 'ScannerFunction', {
      description: 'consent-service tracker scanner (headless Chromium)',
      code: lambda.DockerImageCode.fromImageAsset(repoRoot, {
        file: 'functions/scanner/Dockerfile',
        exclude: scannerImageExcludes,
        platform: Platform.LINUX_AMD64,
      }),
      architecture: lambda.Architecture.X86_64,
      role,
      memorySize: 2048,
      ephemeralStorageSize: Size.mebibytes(1024),
      timeout: Duration.seconds(scanBudget.lambdaTimeoutSeconds),
      reservedConcurrentExecutions: scanBudget.concurrency,
      logGroup,
      environment: { TABLE_NAME: props.table.tableName, CMS_STAGE: 'aws', NODE_OPTIONS: '--enable-source-maps', CMS_FUNCTION_TIMEOUT_SECONDS: String(scanBudget.lambdaTimeoutSeconds) },
    });
    // The poller never invokes more than the reserved concurrency allows: a throttled invocation would
    // count as a receive and push waiting scans into the DLQ.
    this.scanner.addEventSource(new SqsEventSource(props.queue, { batchSize: 1, maxConcurrency: scanBudget.concurrency }));

    const scheduler = props.functions.build('scan-scheduler', join(repoRoot, 'functions', 'scan-scheduler', 'handler.ts'), 'consent-service scheduled tracker scans', accessOf('scan-scheduler'));
    new events.Rule(this, 'ScanSchedule', {
      description: 'Queue the scheduled tracker scans that are due (every 30 days per tenant with scanEnabled)',
      schedule: events.Schedule.rate(Duration.hours(1)),
      targets: [new targets.LambdaFunction(scheduler)],
    });
  }
}
