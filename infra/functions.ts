import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy, Stack, Validations, type CfnResource } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { functionGroups, type FunctionGroup } from '../shared/http/route';
import { routeList } from '../shared/http/routes';
import { logRetentionDays } from '../shared/retention/third-schedule';
import { accessOf, type Access } from './access';
import { lambdaBundling } from './bundling';
import type { EvidenceKeys } from './evidence';
import { tokenKeyContext, TokenPublicKeys } from './token-keys';

/** The repository root: entries, the lock file and tsconfig are found from here, whatever the cwd. */
export const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** Convention: group G's Lambda is built from `functions/G/handler.ts`, which exports `handler`. */
export const entryOf = (group: FunctionGroup): string => join(repoRoot, 'functions', group, 'handler.ts');

/** What every function may do on the table; Scan is left out on purpose. */
export const tableActions = ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'ConditionCheckItem'] as const;

/** Every function's timeout; the SDK clients' timeouts are fitted inside it (CMS_FUNCTION_TIMEOUT_SECONDS, shared/config/engines.ts). */
export const functionTimeoutSeconds = 15;

/**
 * The rights sweeper's timeout and schedule: it carries the retention sweep, whose large day (a
 * tenant's 100,000 principals due) is hundreds of passes of 1,000. At 15 s every 15 minutes that
 * was about 25 hours a phase (docs/retention.md); at 4 minutes every 5, minutes. The sweep starts
 * no pass it cannot finish before the timeout (sweepRetentionPasses), and an invocation ends
 * before the next begins.
 */
export const sweeperTimeoutSeconds = 240;
export const sweeperScheduleMinutes = 5;

/** A function's timeout: the sweeper's own, every other function's the same. */
export const timeoutOf = (name: string): number => (name === 'rights-sweeper' ? sweeperTimeoutSeconds : functionTimeoutSeconds);

/**
 * How long the service's own logs (every function's, the API's access log) are kept: rules 6(1)(e)
 * and 8(3) want the logs of processing a year from the processing (logRetentionDays). CloudWatch
 * offers fixed periods; this is the shortest that is not shorter.
 */
export const serviceLogRetention = logs.RetentionDays.ONE_YEAR;
if (serviceLogRetention < logRetentionDays) throw new Error(`function logs are kept ${serviceLogRetention} days, rules 6 and 8(3) want ${logRetentionDays}`);

/**
 * What every function of the stack stands on: a year of logs in its own log group, and its own
 * role instead of the managed AWSLambdaBasicExecutionRole (whose logs rights cover every log group
 * in the account). The role writes that log group and reads and writes table items, never Scan;
 * the two wildcards this needs are acknowledged to cdk-nag here, once.
 */
export const functionIdentity = (scope: Construct, id: string, description: string, table: dynamodb.ITable) => {
  const logGroup = new logs.LogGroup(scope, `${id}Logs`, { retention: serviceLogRetention });
  const role = new iam.Role(scope, `${id}Role`, { description, assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
  role.addToPolicy(new iam.PolicyStatement({ actions: ['logs:CreateLogStream', 'logs:PutLogEvents'], resources: [`${logGroup.logGroupArn}:*`] }));
  role.addToPolicy(
    new iam.PolicyStatement({ actions: tableActions.map((action) => `dynamodb:${action}`), resources: [table.tableArn, `${table.tableArn}/index/*`] }),
  );
  Validations.of(role).acknowledge({
    id: `AwsSolutions-IAM5[Resource::<${Stack.of(scope).getLogicalId(logGroup.node.defaultChild as CfnResource)}.Arn>:*]`,
    reason: "Lambda names its own log streams inside the function's log group; the grant stops at that group.",
  });
  Validations.of(role).acknowledge({
    id: `AwsSolutions-IAM5[Resource::<${Stack.of(scope).getLogicalId(table.node.defaultChild as CfnResource)}.Arn>/index/*]`,
    reason: "Queries use the single table's global secondary indexes (shared/db/table.ts), all of them by design of the single-table model.",
  });
  return { logGroup, role };
};

/**
 * Memory per function, by measurement (`npm run bench`: the work section's table 4c and the price
 * section's 5e, bench/sizing.ts): Lambda's CPU grows with memory, so the memory where cost ×
 * duration is lowest is 1,769 × CPU ms / wait ms of an invocation. On the loaded 2-core machine the
 * optimum scatters from run to run (sdk-record's group 512–1,152 MB, cmp-public 1,088–1,152, the
 * stream 896–1,088 for full batches and 640–704 for single records); the figures chosen sit in the
 * middle of each, where the curve is within a few percent of flat, and halve the record path's
 * cold start against 512 (docs/performance.md, Lambda memory). The functions the bench does not
 * measure keep 512.
 */
export const functionMemoryMb: Readonly<Record<string, number>> = {
  'consent-public': 1024,
  'cmp-public': 1024,
  stream: 768,
};
const defaultMemoryMb = 512;

/** `webhook-worker` -> `WebhookWorker`: construct ids from function names. */
export const pascal = (group: string): string =>
  group.replace(/(^|-)([a-z0-9])/g, (_match, _dash: string, letter: string) => letter.toUpperCase());

export interface GroupFunctionsProps {
  table: dynamodb.ITable;
  webhookQueue: sqs.IQueue;
  scanQueue: sqs.IQueue;
  /** The breach-intimation queue (pages and batches of a breach's principal intimation). */
  breachQueue: sqs.IQueue;
  /** Sender of the service's mails (MAIL_FROM); SES rights are limited to its identities. */
  mailFrom: string;
  /** The evidence log's signing key, checkpoint archive and receipt key secret. */
  evidence: EvidenceKeys;
  /** Prints documents as PDF (infra/document-printer.ts). */
  documentPrinter: lambda.IFunction;
}

/** One esbuild-bundled Lambda per function group, with its log group and least-privilege grants. */
export class GroupFunctions extends Construct {
  readonly byGroup: ReadonlyMap<FunctionGroup, NodejsFunction>;
  /** Every function built here, route groups and workers, by name: what the grants test walks. */
  readonly byName = new Map<string, NodejsFunction>();
  /** Signs access tokens: only the auth function may use it; every HTTP function is given its public half at deploy. */
  readonly tokenSigningKey: kms.Key;
  /** The deploy-time reader of the access-token keys' public halves. */
  readonly tokenPublicKeys: TokenPublicKeys;
  readonly webhookKeySecret: secretsmanager.Secret;
  readonly cursorSecret: secretsmanager.Secret;

  constructor(scope: Construct, id: string, props: GroupFunctionsProps) {
    super(scope, id);

    const tokenKeys = tokenKeyContext(this);
    this.tokenSigningKey = new kms.Key(this, tokenKeys.generation === 1 ? 'TokenSigningKey' : `TokenSigningKey${tokenKeys.generation}`, {
      description: `Signs dashboard access tokens (ECDSA P-256, ES256), generation ${tokenKeys.generation}`,
      keySpec: kms.KeySpec.ECC_NIST_P256,
      keyUsage: kms.KeyUsage.SIGN_VERIFY,
      // A key replaced by a rotation is left for its deletion to be scheduled by hand, once no token it signed is valid.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    // The public halves of it and of a rotation's previous keys, read from KMS at deploy and given to every HTTP function
    // (TOKEN_PUBLIC_KEYS); and the checkpoint key's, given to the log's verification (LOG_PUBLIC_KEYS).
    this.tokenPublicKeys = new TokenPublicKeys(this, 'TokenPublicKeys', {
      signingKey: this.tokenSigningKey,
      previousKeyArns: tokenKeys.previous,
      logSigningKey: props.evidence.logSigningKey,
      entry: join(repoRoot, 'functions', 'token-public-keys', 'handler.ts'),
      projectRoot: repoRoot,
      logRetention: serviceLogRetention,
    });

    this.webhookKeySecret = new secretsmanager.Secret(this, 'WebhookSecretKey', {
      description: 'Key that encrypts webhook signing secrets at rest',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
    });

    this.cursorSecret = new secretsmanager.Secret(this, 'CursorSecret', {
      description: 'HMAC key that authenticates paging cursors',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
    });

    for (const secret of [this.webhookKeySecret, this.cursorSecret]) {
      Validations.of(secret).acknowledge({
        id: 'AwsSolutions-SMG4',
        reason:
          'Rotated by hand, by design: the webhook key would need every stored webhook secret and identity verifier re-encrypted, and the cursor key only invalidates paging cursors (docs/deploying.md).',
      });
    }

    const environment: Record<string, string> = {
      TABLE_NAME: props.table.tableName,
      CMS_STAGE: 'aws',
      // No NODE_OPTIONS=--enable-source-maps: with it Node reads and parses the bundle's whole source
      // map on every cold start (a tenth or more of the cold path, docs/bundles.md). Stack traces are
      // mapped to the sources on demand instead, from the map beside the bundle (shared/stack-traces.ts).
      CMS_FUNCTION_TIMEOUT_SECONDS: String(functionTimeoutSeconds),
      WEBHOOK_QUEUE_URL: props.webhookQueue.queueUrl,
      SCAN_QUEUE_URL: props.scanQueue.queueUrl,
      BREACH_QUEUE_URL: props.breachQueue.queueUrl,
      MAIL_FROM: props.mailFrom,
      // This resolves the secret into the function configuration at deploy time, so anyone with
      // lambda:GetFunctionConfiguration can read it. Production hardening: pass only the secret
      // ARN and read the secret at cold start (grantRead), caching it for the container's life.
      // The key that encrypts webhook secrets and secret API keys' identity verifiers at rest.
      WEBHOOK_SECRET_KEY: this.webhookKeySecret.secretValue.unsafeUnwrap(),
      // Same trade-off again: the key that authenticates paging cursors.
      CURSOR_SECRET: this.cursorSecret.secretValue.unsafeUnwrap(),
    };

    const archiveGrant = (fn: lambda.Function, objectActions: string[]) => {
      const bucket = props.evidence.checkpointBucket;
      fn.addToRolePolicy(new iam.PolicyStatement({ actions: objectActions, resources: [bucket.arnForObjects('*')] }));
      fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:ListBucket'], resources: [bucket.bucketArn] }));
      fn.addEnvironment('CHECKPOINT_BUCKET', bucket.bucketName);
      Validations.of(fn.role!).acknowledge({
        id: `AwsSolutions-IAM5[Resource::<${Stack.of(this).getLogicalId(bucket.node.defaultChild as CfnResource)}.Arn>/*]`,
        reason: 'Checkpoint notes are named per tenant and tree size as they are signed; the grant covers the objects of the one archive bucket, which Object Lock keeps from being overwritten.',
      });
    };

    const grants: Record<Access, (fn: lambda.Function) => void> = {
      webhookQueueSend: (fn) => {
        fn.addToRolePolicy(
          new iam.PolicyStatement({ actions: ['sqs:SendMessage'], resources: [props.webhookQueue.queueArn] }),
        );
        // The queue uses SQS-managed SSE, so no KMS grant is needed.
      },
      scanQueueSend: (fn) => {
        fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['sqs:SendMessage'], resources: [props.scanQueue.queueArn] }));
      },
      breachQueueSend: (fn) => {
        fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['sqs:SendMessage'], resources: [props.breachQueue.queueArn] }));
      },
      sesSend: (fn) => {
        // Only the sender's own identities: the address, or its domain when the domain is what SES verified.
        const domain = props.mailFrom.slice(props.mailFrom.lastIndexOf('@') + 1);
        fn.addToRolePolicy(
          new iam.PolicyStatement({
            actions: ['ses:SendEmail', 'ses:SendRawEmail'],
            resources: [props.mailFrom, domain].map((identity) =>
              Stack.of(this).formatArn({ service: 'ses', resource: 'identity', resourceName: identity }),
            ),
          }),
        );
      },
      // Each evidence grant also tells the function where the resource is, so no function that may
      // sign or archive falls back to the local stack's key files or bucket name.
      logSigningKey: (fn) => {
        fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['kms:Sign', 'kms:GetPublicKey'], resources: [props.evidence.logSigningKey.keyArn] }));
        fn.addEnvironment('LOG_SIGNING_KEY_ARN', props.evidence.logSigningKey.keyArn);
      },
      // The checkpoint key's public half, read at deploy: the verification opens notes with it, and
      // holds no KMS client and no KMS right (it never signs).
      logPublicKey: (fn) => {
        fn.addEnvironment('LOG_PUBLIC_KEYS', this.tokenPublicKeys.logJwks!);
      },
      // Write notes with their retention date (PutObjectRetention; compliance mode only lets a
      // lock grow) and read them; never delete. ListBucket makes a missing note a 404 instead of a 403.
      checkpointArchive: (fn) => archiveGrant(fn, ['s3:PutObject', 's3:PutObjectRetention', 's3:GetObject']),
      checkpointArchiveRead: (fn) => archiveGrant(fn, ['s3:GetObject']),
      receiptKey: (fn) => {
        fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [props.evidence.receiptKeySecret.secretArn] }));
        fn.addEnvironment('RECEIPT_KEY_SECRET_ARN', props.evidence.receiptKeySecret.secretArn);
      },
      // Only the auth function can sign access tokens: the key never leaves KMS, and no other role may
      // use it. Its signer reads its own public half once per warm instance, for the kid.
      tokenSigning: (fn) => {
        fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['kms:Sign', 'kms:GetPublicKey'], resources: [this.tokenSigningKey.keyArn] }));
        fn.addEnvironment('TOKEN_SIGNING_KEY', this.tokenSigningKey.keyArn);
      },
      // Every HTTP function checks access tokens with the public keys read at deploy: no KMS client, no KMS right.
      tokenVerify: (fn) => {
        fn.addEnvironment('TOKEN_PUBLIC_KEYS', this.tokenPublicKeys.jwks);
      },
      // A printed document: the page goes to the printer function and its PDF comes back (shared/documents/pdf.ts).
      documentPrint: (fn) => {
        fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [props.documentPrinter.functionArn] }));
        fn.addEnvironment('DOCUMENT_PRINTER_FUNCTION', props.documentPrinter.functionName);
      },
      // …and the page comes from the function of the document's own route (the route table's
      // `prints`; shared/documents/printed.ts). Those functions are built before this one
      // (`documents` is the last group).
      documentSource: (fn) => {
        const names: Record<string, string> = {};
        for (const group of [...new Set(routeList.flatMap((route) => (route.prints ? [route.prints.group] : [])))].sort()) {
          const source = this.byName.get(group);
          if (!source) throw new Error(`the documents function prints pages of "${group}", which is not built before it`);
          fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [source.functionArn] }));
          names[group] = source.functionName;
        }
        fn.addEnvironment('DOCUMENT_SOURCE_FUNCTIONS', Stack.of(this).toJsonString(names));
      },
      translate: (fn) => {
        // TranslateText has no resource-level permissions.
        fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['translate:TranslateText'], resources: ['*'] }));
        Validations.of(fn.role!).acknowledge({ id: 'AwsSolutions-IAM5[Resource::*]', reason: 'translate:TranslateText has no resource-level permissions.' });
      },
    };

    this.build = (name, entry, description, access) => {
      if (!existsSync(entry)) throw new Error(`function "${name}" has no entry at ${entry}`);
      const id = pascal(name);
      const { logGroup, role } = functionIdentity(this, id, `consent-service ${name}`, props.table);
      const fn = new NodejsFunction(this, `${id}Function`, {
        role,
        description,
        entry,
        handler: 'handler',
        projectRoot: repoRoot,
        depsLockFilePath: join(repoRoot, 'package-lock.json'),
        runtime: lambda.Runtime.NODEJS_22_X,
        architecture: lambda.Architecture.ARM_64,
        memorySize: functionMemoryMb[name] ?? defaultMemoryMb,
        timeout: Duration.seconds(timeoutOf(name)),
        logGroup,
        environment: { ...environment, CMS_FUNCTION_TIMEOUT_SECONDS: String(timeoutOf(name)) },
        bundling: lambdaBundling,
      });
      for (const grant of access) grants[grant](fn);
      Validations.of(fn).acknowledge({
        id: 'AwsSolutions-L1',
        reason: 'The runtime is pinned to the Node.js major the bundles target (infra/bundling.ts) and the tests run; it moves deliberately, with both.',
      });
      this.byName.set(name, fn);
      return fn;
    };

    const byGroup = new Map<FunctionGroup, NodejsFunction>();
    for (const group of functionGroups) {
      byGroup.set(group, this.build(group, entryOf(group), `consent-service ${group} routes`, [...accessOf(group), 'tokenVerify']));
    }
    this.byGroup = byGroup;
    // A rotation's deploy gives every verifying function the new key's public half before auth signs
    // with it: CloudFormation updates auth only once the other HTTP functions are updated.
    for (const [group, fn] of byGroup) if (group !== 'auth') this.of('auth').node.addDependency(fn);
  }

  /** Builds a function the same way as the route groups': for workers that no route reaches. */
  readonly build: (name: string, entry: string, description: string, access: readonly Access[]) => NodejsFunction;

  /** The function of `group`; every group in `functionGroups` has one. */
  of(group: FunctionGroup): NodejsFunction {
    const fn = this.byGroup.get(group);
    if (!fn) throw new Error(`no function for group "${group}"`);
    return fn;
  }
}
