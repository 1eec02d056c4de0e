import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import type { CfnResource } from 'aws-cdk-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { OperationsAlarms } from '../../infra/alarms';
import { addComplianceChecks } from '../../infra/compliance';
import { demoContentSecurityPolicy } from '../../web/build';
import { immutableCacheControl, noStoreCacheControl, shortCacheControl } from '../../infra/web';
import { repoRoot, serviceLogRetention, tableActions } from '../../infra/functions';
import { tokenKeyContext, TokenPublicKeys } from '../../infra/token-keys';
import { ConsentServiceStack, streamItemTypes, streamChangedItemTypes, streamSubmittedTypes, streamSucceededTypes } from '../../infra/stack';
import { streamConsumers } from '../../functions/stream/consumers';
import { config } from '../../shared/config';
import { metricNamespace, metricNames } from '../../shared/metrics';
import { tableDefinition } from '../../shared/db/table';
import { logRetentionDays } from '../../shared/retention/third-schedule';
import { deliveryRetentionSeconds } from '../../shared/webhooks/delivery-item';
import { scanBudget } from '../../shared/scanner/budget';
import { edgeCachePolicies } from '../../shared/http/edge-cache';
import { functionGroups, routeKeyOf, type FunctionGroup } from '../../shared/http/route';
import { routeList } from '../../shared/http/routes';
import { awsServicesIn, packagesIn, routeGroupsIn } from '../support/bundle-clients';

type Resource = { Type: string; Properties: Record<string, unknown> };

let stack: ConsentServiceStack;
let template: Template;

const resourcesOf = (type: string): Record<string, Resource> => template.findResources(type) as Record<string, Resource>;

/** Logical id of the Lambda function serving `group`. */
const functionIdOf = (group: FunctionGroup): string =>
  stack.getLogicalId(stack.functions.of(group).node.defaultChild as CfnResource);

/** The Lambda logical id an API Gateway route ends up invoking: route → integration → function. */
const functionIdBehind = (route: Resource): string => {
  const target = JSON.stringify(route.Properties.Target);
  const integrationId = /"Ref":"([^"]+)"/.exec(target)?.[1];
  expect(integrationId, `route target ${target}`).toBeDefined();
  const integration = resourcesOf('AWS::ApiGatewayV2::Integration')[integrationId!];
  expect(integration, `integration ${integrationId}`).toBeDefined();
  return (integration!.Properties.IntegrationUri as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
};

const routesByKey = (): Map<string, Resource> =>
  new Map(Object.values(resourcesOf('AWS::ApiGatewayV2::Route')).map((r) => [r.Properties.RouteKey as string, r]));

beforeAll(() => {
  // The same feature flags `cdk synth` uses, so the test sees the template a deploy would.
  const { context } = JSON.parse(readFileSync(join(repoRoot, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> };
  // Lambda bundling is skipped here ('aws:cdk:bundling-stacks': none): the tests below bundle each
  // function themselves with esbuild's asynchronous API, exactly as a deploy does. Bundling inside
  // synth runs esbuild synchronously, and two dozen bundles on a loaded machine kept this worker
  // from answering vitest's RPC for over a minute ("Timeout calling onTaskUpdate").
  const app = new App({ context: { ...context, 'aws:cdk:bundling-stacks': [] } });
  stack = new ConsentServiceStack(app, 'ConsentServiceStack', { env: { account: '123456789012', region: 'ap-south-1' } });
  addComplianceChecks(app);
  // cdk-nag's AwsSolutions findings fail the synth, each printed with its construct path.
  app.synth();
  template = Template.fromStack(stack);
}, 120_000);

/** Every statement granted to `fn`'s role, by any policy attached to it. */
const statementsOf = (fn: { role?: unknown }): { Action: string | string[]; Resource: unknown }[] => {
  const roleId = stack.getLogicalId((fn.role as { node: { defaultChild: CfnResource } }).node.defaultChild);
  return Object.values(resourcesOf('AWS::IAM::Policy'))
    .filter((policy) => JSON.stringify(policy.Properties.Roles).includes(`"${roleId}"`))
    .flatMap((policy) => (policy.Properties.PolicyDocument as { Statement: { Action: string | string[]; Resource: unknown }[] }).Statement);
};

/** Every IAM action granted to `fn`'s role, by any policy attached to it. */
const actionsOf = (fn: { role?: unknown }): string[] => statementsOf(fn).flatMap((statement) => [statement.Action].flat());

/** The actions granted to `fn` on the resource `ref` names (a CloudFormation reference to a logical id). */
const actionsOn = (fn: { role?: unknown }, logicalId: string): string[] =>
  statementsOf(fn)
    .filter((statement) => JSON.stringify(statement.Resource).includes(`"${logicalId}"`))
    .flatMap((statement) => [statement.Action].flat());

describe('HTTP API', () => {
  it('has one route per entry of the route table, each to its group function', () => {
    const routes = routesByKey();
    for (const route of routeList) {
      const key = routeKeyOf(route);
      template.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: key });
      expect(functionIdBehind(routes.get(key)!), key).toBe(functionIdOf(route.group));
    }
  });

  it('sends every other request ($default) to the meta function', () => {
    const fallback = routesByKey().get('$default');
    expect(fallback).toBeDefined();
    expect(functionIdBehind(fallback!)).toBe(functionIdOf('meta'));
    template.resourceCountIs('AWS::ApiGatewayV2::Route', routeList.length + 1);
  });

  it('logs each request by route key, never by path or client address', () => {
    const stages = Object.values(resourcesOf('AWS::ApiGatewayV2::Stage'));
    expect(stages).toHaveLength(1);
    const format = (stages[0]!.Properties.AccessLogSettings as { Format: string }).Format;
    expect(format).toContain('$context.routeKey');
    expect(format).not.toMatch(/\$context\.(path|identity\.sourceIp|http\.path)/);
  });

  it('answers CORS preflight', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      ProtocolType: 'HTTP',
      CorsConfiguration: {
        AllowOrigins: ['*'],
        AllowMethods: Match.arrayWith(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']),
        AllowHeaders: ['Content-Type', 'Authorization', 'X-API-Key', 'If-None-Match'],
        ExposeHeaders: ['X-Request-Id', 'Retry-After', 'ETag', 'Age', 'X-Next-Cursor', 'X-Export-Records', 'X-Export-Total', 'Content-Disposition'],
        MaxAge: 86_400,
      },
    });
  });
});

describe('functions', () => {
  it('runs webhook attempts from the delivery queue, reporting failures per message', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', { BatchSize: 10, FunctionResponseTypes: ['ReportBatchItemFailures'], EventSourceArn: Match.anyValue() });
  });

  it('feeds the stream function the inserts of outbox items, withdrawals, consent records, logged documents and the checkpoints evidence packs ask for, and the inserts and changes of guardian requests, reporting failures per record and never dropping a batch', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: stack.getLogicalId(stack.functions.byName.get('stream')!.node.defaultChild as CfnResource) },
      StartingPosition: 'TRIM_HORIZON',
      // Never drops a batch (the log must not skip a record); batches of up to 100 within a second.
      MaximumRetryAttempts: -1,
      BatchSize: 100,
      MaximumBatchingWindowInSeconds: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      FilterCriteria: {
        Filters: [
          { Pattern: JSON.stringify({ eventName: ['INSERT'], dynamodb: { NewImage: { type: { S: ['OutboxMail', 'OutboxEvent', 'WithdrawalRecord', 'ConsentRecord', 'LogDocument', 'CheckpointRequest'] } } } }) },
          { Pattern: JSON.stringify({ eventName: ['INSERT', 'MODIFY'], dynamodb: { NewImage: { type: { S: ['GuardianRequest'] } } } }) },
          // A webhook delivery only as it succeeds (a breach.principals page acknowledged), inserted so or retried into it.
          { Pattern: JSON.stringify({ eventName: ['INSERT', 'MODIFY'], dynamodb: { NewImage: { type: { S: ['WebhookDelivery'] }, status: { S: ['SUCCESS'] } } } }) },
          // A rights request only as it is submitted (the principal's activity), inserted so or confirmed into it.
          { Pattern: JSON.stringify({ eventName: ['INSERT', 'MODIFY'], dynamodb: { NewImage: { type: { S: ['RightsRequest'] }, status: { S: ['SUBMITTED'] } } } }) },
        ],
      },
    });
    // Exactly what the consumers take: none is starved by the filter, and no other change invokes the function.
    expect(new Set([...streamItemTypes, ...streamChangedItemTypes, ...streamSucceededTypes, ...streamSubmittedTypes])).toEqual(new Set(streamConsumers.flatMap((consumer) => consumer.itemTypes)));
    const takesChanges = streamConsumers.filter((consumer) => consumer.eventNames.includes('MODIFY')).flatMap((consumer) => consumer.itemTypes);
    expect(new Set(takesChanges)).toEqual(new Set([...streamChangedItemTypes, ...streamSucceededTypes, ...streamSubmittedTypes]));
    expect(new Set(streamConsumers.flatMap((consumer) => consumer.eventNames))).toEqual(new Set(['INSERT', 'MODIFY']));
  });

  it('has one nodejs22.x arm64 function per group, plus the stream function, the delivery worker, the sweeper, the scan scheduler, the checkpointer, the stream sweeper, the breach worker and the rights sweeper', () => {
    // And the tracker scanner and the document printer (container images of one image); and three that run only at deploy time: the CDK's own bucket-deployment handler, the access-token key reader and the CDK's provider framework in front of it.
    expect(stack.functions.byName.size).toBe(functionGroups.length + 8);
    template.resourceCountIs('AWS::Lambda::Function', functionGroups.length + 8 + 5);
    // The sweeper runs on a schedule, every 5 minutes; the checkpointer and the stream sweeper every minute; the rights
    // sweeper (and the retention sweep it carries) every 5 minutes, each run over within 4 minutes, before the next.
    template.hasResourceProperties('AWS::Events::Rule', { ScheduleExpression: 'rate(5 minutes)' });
    const rightsSweeper = stack.functions.byName.get('rights-sweeper')!.node.defaultChild as CfnResource;
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(5 minutes)',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [stack.getLogicalId(rightsSweeper), 'Arn'] } })],
    });
    expect(resourcesOf('AWS::Lambda::Function')[stack.getLogicalId(rightsSweeper)]!.Properties.Timeout).toBe(240);
    for (const name of ['checkpointer', 'stream-sweeper']) {
      template.hasResourceProperties('AWS::Events::Rule', {
        ScheduleExpression: 'rate(1 minute)',
        Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [stack.getLogicalId(stack.functions.byName.get(name)!.node.defaultChild as CfnResource), 'Arn'] } })],
      });
    }
    for (const group of functionGroups) {
      const fn = resourcesOf('AWS::Lambda::Function')[functionIdOf(group)];
      expect(fn, group).toBeDefined();
      expect(fn!.Properties).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        // Memory by measurement where the bench measured it (infra/functions.ts functionMemoryMb).
        MemorySize: group === 'consent-public' || group === 'cmp-public' ? 1024 : 512,
        Timeout: 15,
        Handler: 'index.handler',
      });
    }
    const stream = resourcesOf('AWS::Lambda::Function')[stack.getLogicalId(stack.functions.byName.get('stream')!.node.defaultChild as CfnResource)];
    expect(stream!.Properties.MemorySize).toBe(768);
  });

  it('gives every function the environment the config reads', () => {
    for (const built of stack.functions.byName.values()) {
      const fn = resourcesOf('AWS::Lambda::Function')[stack.getLogicalId(built.node.defaultChild as CfnResource)]!;
      const variables = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(Object.keys(variables)).toEqual(
        expect.arrayContaining(['TABLE_NAME', 'CMS_STAGE', 'CMS_FUNCTION_TIMEOUT_SECONDS', 'WEBHOOK_QUEUE_URL', 'BREACH_QUEUE_URL', 'CURSOR_SECRET']),
      );
      expect(variables.CMS_STAGE).toBe('aws');
      // Node's own source maps would parse the whole map on every cold start; the bundles map stack traces on demand (shared/stack-traces.ts).
      expect(String(variables.NODE_OPTIONS ?? ''), 'NODE_OPTIONS').not.toContain('--enable-source-maps');
      // The SDK clients' timeouts are fitted inside the function's own.
      expect(variables.CMS_FUNCTION_TIMEOUT_SECONDS).toBe(String(fn.Properties.Timeout));
    }
  });

  it("keeps every function's logs and the API's access log at least the year of rules 6(1)(e) and 8(3)", () => {
    // One per function: the groups, the eight functions beside them, the scanner and the document printer; the API's access log, the bucket-deployment handler's, the token key reader's and its provider framework's.
    const logGroups = resourcesOf('AWS::Logs::LogGroup');
    expect(Object.keys(logGroups)).toHaveLength(functionGroups.length + 10 + 4);
    for (const [id, group] of Object.entries(logGroups)) expect(group.Properties.RetentionInDays, id).toBeGreaterThanOrEqual(logRetentionDays);
    // Every function (the bucket-deployment handler too) logs into a log group of the stack, never one Lambda makes unbounded.
    for (const [id, fn] of Object.entries(resourcesOf('AWS::Lambda::Function'))) {
      const logGroup = JSON.stringify((fn.Properties.LoggingConfig as { LogGroup?: unknown } | undefined)?.LogGroup ?? null);
      expect(Object.keys(logGroups).some((groupId) => logGroup.includes(`"${groupId}"`)), `${id} logs into ${logGroup}`).toBe(true);
    }
    for (const fn of stack.functions.byName.values()) {
      const logGroup = logGroups[stack.getLogicalId(fn.logGroup.node.defaultChild as CfnResource)];
      expect(logGroup?.Properties.RetentionInDays).toBe(365);
    }
  });

  // What each AWS service a bundle calls may be granted; a service missing here fails the test until it is mapped.
  const actionsForService: Record<string, string[]> = {
    dynamodb: tableActions.map((action) => `dynamodb:${action}`),
    sqs: ['sqs:SendMessage'],
    ses: ['ses:SendEmail', 'ses:SendRawEmail'],
    translate: ['translate:TranslateText'],
    // Signing checkpoints or access tokens, with the signing key's own public half (its kid).
    kms: ['kms:Sign', 'kms:GetPublicKey'],
    // Notes are put with an Object Lock retention date; ListBucket turns a missing note into 404.
    s3: ['s3:PutObject', 's3:PutObjectRetention', 's3:GetObject', 's3:ListBucket'],
    secretsmanager: ['secretsmanager:GetSecretValue'],
    // Only the document printer, to print a document as a PDF.
    lambda: ['lambda:InvokeFunction'],
  };
  // Rights the platform needs whatever the code imports: logging, and the stream the outbox is fed from.
  const platformActions = new Set(['logs:CreateLogStream', 'logs:PutLogEvents', 'dynamodb:ListStreams', 'dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'sqs:ReceiveMessage', 'sqs:ChangeMessageVisibility', 'sqs:GetQueueUrl', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes']);
  const serviceOf = (action: string) => action.slice(0, action.indexOf(':'));

  it('grants each function exactly the AWS services whose SDK clients its bundle holds, and no Scan', async () => {
    expect([...stack.functions.byName.keys()].sort()).toEqual([...functionGroups, 'stream', 'webhook-worker', 'webhook-sweeper', 'scan-scheduler', 'checkpointer', 'stream-sweeper', 'breach-worker', 'rights-sweeper'].sort());
    for (const [name, fn] of stack.functions.byName) {
      const services = await awsServicesIn(join(repoRoot, 'functions', name, 'handler.ts'));
      for (const service of services) expect(Object.keys(actionsForService), `${name} calls ${service}`).toContain(service);
      const granted = [...new Set(actionsOf(fn).filter((action) => !platformActions.has(action)))];
      // A client in the bundle without a grant would fail in AWS; a grant without a client is a right nobody needs.
      expect([...new Set(granted.map(serviceOf))].sort(), name).toEqual(services);
      for (const action of granted) expect(actionsForService[serviceOf(action)], `${name}: ${action}`).toContain(action);
      // Every table right a function's DynamoDB client may use, the same for all of them.
      expect(granted.filter((action) => action.startsWith('dynamodb:')).sort(), name).toEqual([...actionsForService.dynamodb!].sort());
      expect(actionsOf(fn), name).not.toContain('dynamodb:Scan');
    }
    // Bundling 21 functions with the SDK takes a while on a loaded 2-core machine.
  }, 240_000);

  it('lets only the auth function sign access tokens; every HTTP function is given the public key at deploy and holds no KMS right on it, and no function holds a token secret', () => {
    const keyId = stack.getLogicalId(stack.functions.tokenSigningKey.node.defaultChild as CfnResource);
    template.hasResource('AWS::KMS::Key', { Properties: { KeySpec: 'ECC_NIST_P256', KeyUsage: 'SIGN_VERIFY' }, DeletionPolicy: 'Retain' });
    // The custom resource that reads the public halves at deploy: its properties are the key ARNs (a rotation's new list reads them again).
    const readers = resourcesOf('Custom::TokenPublicKeys');
    expect(Object.keys(readers)).toHaveLength(1);
    const [readerId, reader] = Object.entries(readers)[0]!;
    expect(reader.Properties.KeyArns).toEqual([{ 'Fn::GetAtt': [keyId, 'Arn'] }]);
    const published = { 'Fn::GetAtt': [readerId, 'Jwks'] };
    // Its reader may read the public key and nothing else of it.
    expect(actionsOn(stack.functions.tokenPublicKeys.reader, keyId)).toEqual(['kms:GetPublicKey']);
    expect([...new Set(actionsOf(stack.functions.tokenPublicKeys.reader))].sort()).toEqual(['kms:GetPublicKey', 'logs:CreateLogStream', 'logs:PutLogEvents']);
    const authId = stack.getLogicalId(stack.functions.of('auth').node.defaultChild as CfnResource);
    const authDependsOn = (resourcesOf('AWS::Lambda::Function')[authId] as unknown as { DependsOn?: string[] }).DependsOn ?? [];
    for (const [name, built] of stack.functions.byName) {
      const id = stack.getLogicalId(built.node.defaultChild as CfnResource);
      const fn = resourcesOf('AWS::Lambda::Function')[id]!;
      const variables = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
      const onKey = actionsOn(built, keyId);
      // auth signs, and reads its own key's public half for the kid; no other function may do either.
      expect(onKey.sort(), name).toEqual(name === 'auth' ? ['kms:GetPublicKey', 'kms:Sign'] : []);
      expect('TOKEN_SIGNING_KEY' in variables, name).toBe(name === 'auth');
      const isRouteGroup = (functionGroups as readonly string[]).includes(name);
      expect(variables.TOKEN_PUBLIC_KEYS, name).toEqual(isRouteGroup ? published : undefined);
      expect('TOKEN_VERIFY_KEYS' in variables, name).toBe(false);
      expect(Object.keys(variables).filter((variable) => /JWT_SIGNING|TOKEN_SECRET/.test(variable)), name).toEqual([]);
      // A rotation's deploy updates every verifying function before auth signs with the new key.
      if (isRouteGroup && name !== 'auth') expect(authDependsOn, name).toContain(id);
    }
    // Nothing else in the account's policies of this stack may sign with it.
    const signers = Object.values(resourcesOf('AWS::IAM::Policy')).filter((policy) =>
      (policy.Properties.PolicyDocument as { Statement: { Action: string | string[]; Resource: unknown }[] }).Statement.some(
        (statement) => [statement.Action].flat().some((action) => action === 'kms:Sign' || action === 'kms:*') && JSON.stringify(statement.Resource).includes(`"${keyId}"`),
      ),
    );
    expect(signers).toHaveLength(1);
    expect(Object.keys(resourcesOf('AWS::SecretsManager::Secret')).some((id) => /Jwt/i.test(id))).toBe(false);
  });

  it("reads a rotation's previous keys too, after the signing key (CDK context), and refuses a previous key that is not a KMS key ARN", () => {
    const previous = 'arn:aws:kms:ap-south-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab';
    const rotationOf = (previousTokenKeyArns: string) => {
      const app = new App({ context: { 'aws:cdk:bundling-stacks': [], tokenKeyGeneration: '2', previousTokenKeyArns } });
      const rotated = new Stack(app, 'Rotation', { env: { account: '123456789012', region: 'ap-south-1' } });
      const context = tokenKeyContext(rotated);
      const signingKey = new kms.Key(rotated, `TokenSigningKey${context.generation}`, { keySpec: kms.KeySpec.ECC_NIST_P256, keyUsage: kms.KeyUsage.SIGN_VERIFY });
      new TokenPublicKeys(rotated, 'TokenPublicKeys', { signingKey, previousKeyArns: context.previous, entry: join(repoRoot, 'functions', 'token-public-keys', 'handler.ts'), projectRoot: repoRoot, logRetention: serviceLogRetention });
      return { template: Template.fromStack(rotated), keyId: rotated.getLogicalId(signingKey.node.defaultChild as CfnResource) };
    };
    const rotation = rotationOf(` ${previous} `);
    expect(rotation.keyId).toMatch(/^TokenSigningKey2/);
    rotation.template.hasResourceProperties('Custom::TokenPublicKeys', { KeyArns: [{ 'Fn::GetAtt': [rotation.keyId, 'Arn'] }, previous] });
    rotation.template.hasResourceProperties('AWS::IAM::Policy', { PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Action: 'kms:GetPublicKey', Resource: [{ 'Fn::GetAtt': [rotation.keyId, 'Arn'] }, previous] })]) } });
    expect(() => rotationOf('alias/old-key')).toThrow(/not a KMS key ARN/);
  });

  it('bundles the KMS client only where a function signs with KMS: auth (tokens), evidence (packs), the stream and the checkpointer (checkpoints)', async () => {
    const signing = ['auth', 'checkpointer', 'evidence', 'stream'];
    for (const name of stack.functions.byName.keys()) {
      const packages = await packagesIn(join(repoRoot, 'functions', name, 'handler.ts'));
      expect(packages.includes('@aws-sdk/client-kms'), name).toBe(signing.includes(name));
    }
    // The reader of the public keys at deploy carries it, and nothing of the service's HTTP stack.
    const readerPackages = await packagesIn(join(repoRoot, 'functions', 'token-public-keys', 'handler.ts'));
    expect(readerPackages).toContain('@aws-sdk/client-kms');
    expect(readerPackages.filter((found) => ['@aws-sdk/client-dynamodb', 'zod', '@middy/core'].includes(found))).toEqual([]);
  }, 240_000);

  it("holds in each HTTP function's bundle only its own group's routes, so no cold start builds another group's request schemas", async () => {
    const held: Record<string, string[]> = {};
    for (const group of functionGroups) held[group] = await routeGroupsIn(join(repoRoot, 'functions', group, 'handler.ts'));
    expect(held).toEqual(Object.fromEntries(functionGroups.map((group) => [group, [group]])));
  }, 240_000);

  it("keeps the scanner's classification data (third-party-web, the public-suffix trie, Chromium) out of every other bundle", async () => {
    const scannerOnly = ['third-party-web', 'tldts', 'puppeteer-core', '@sparticuz/chromium'];
    for (const name of stack.functions.byName.keys()) {
      const packages = await packagesIn(join(repoRoot, 'functions', name, 'handler.ts'));
      expect(packages.filter((found) => scannerOnly.includes(found)), name).toEqual([]);
    }
  }, 240_000);
});

describe('table', () => {
  it('is built from tableDefinition', () => {
    template.resourceCountIs('AWS::DynamoDB::Table', 1);
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [
        { AttributeName: tableDefinition.partitionKey, KeyType: 'HASH' },
        { AttributeName: tableDefinition.sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: tableDefinition.indexes.map((index) =>
        Match.objectLike({
          IndexName: index.name,
          KeySchema: [
            { AttributeName: index.partitionKey, KeyType: 'HASH' },
            { AttributeName: index.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        }),
      ),
      TimeToLiveSpecification: { AttributeName: tableDefinition.ttlAttribute, Enabled: true },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      DeletionProtectionEnabled: true,
      StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' },
    });
    template.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
  });

  it('expires (TTL) no log of the processing before a year: a webhook delivery is kept at least that (docs/retention.md lists what the TTL removes)', () => {
    // The evidence log, logged documents, consent records and the banner's audit entries carry no TTL at all.
    expect(deliveryRetentionSeconds).toBeGreaterThanOrEqual(logRetentionDays * 86_400);
  });
});

describe('evidence keys', () => {
  it('signs checkpoints with a retained ECC P-256 KMS key', () => {
    // And the alarm topic's key (see alarms) and the access-token key (see functions).
    template.resourceCountIs('AWS::KMS::Key', 3);
    template.hasResource('AWS::KMS::Key', { Properties: { KeySpec: 'ECC_NIST_P256', KeyUsage: 'SIGN_VERIFY' }, DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
  });

  it('archives checkpoints in a private, versioned bucket under a 10-year compliance-mode Object Lock', () => {
    template.hasResource('AWS::S3::Bucket', {
      Properties: {
        ObjectLockEnabled: true,
        ObjectLockConfiguration: { ObjectLockEnabled: 'Enabled', Rule: { DefaultRetention: { Mode: 'COMPLIANCE', Days: 3650 } } },
        VersioningConfiguration: { Status: 'Enabled' },
        PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      },
      DeletionPolicy: 'Retain',
    });
    const bucketId = stack.getLogicalId(stack.evidence.checkpointBucket.node.defaultChild as CfnResource);
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: bucketId },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          // Write-once: a put without If-None-Match (a new version over an archived note) is refused.
          Match.objectLike({ Effect: 'Deny', Principal: { AWS: '*' }, Action: 's3:PutObject', Condition: { Null: { 's3:if-none-match': 'true' } } }),
        ]),
      },
    });
  });

  it('never expires an archived checkpoint before the year of rules 6(1)(e) and 8(3) (no lifecycle rule ends one at all)', () => {
    const archive = resourcesOf('AWS::S3::Bucket')[stack.getLogicalId(stack.evidence.checkpointBucket.node.defaultChild as CfnResource)];
    const rules = ((archive?.Properties.LifecycleConfiguration as { Rules?: Record<string, unknown>[] } | undefined)?.Rules ?? []);
    for (const rule of rules) {
      for (const days of [rule.ExpirationInDays, (rule.NoncurrentVersionExpiration as { NoncurrentDays?: number } | undefined)?.NoncurrentDays]) {
        if (days !== undefined) expect(days).toBeGreaterThanOrEqual(logRetentionDays);
      }
    }
    expect(rules).toEqual([]);
  });

  it("gives the log's verification the checkpoint key's public half read at deploy, and it alone; the reader may only read it", () => {
    const logKeyId = stack.getLogicalId(stack.evidence.logSigningKey.node.defaultChild as CfnResource);
    const readings = Object.entries(resourcesOf('Custom::LogPublicKeys'));
    expect(readings).toHaveLength(1);
    const [readingId, reading] = readings[0]!;
    expect(reading.Properties).toMatchObject({ KeyArns: [{ 'Fn::GetAtt': [logKeyId, 'Arn'] }], KeyKind: 'log' });
    expect(actionsOn(stack.functions.tokenPublicKeys.reader, logKeyId)).toEqual(['kms:GetPublicKey']);
    for (const [name, built] of stack.functions.byName) {
      const variables = (resourcesOf('AWS::Lambda::Function')[stack.getLogicalId(built.node.defaultChild as CfnResource)]!.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(variables.LOG_PUBLIC_KEYS, name).toEqual(name === 'evidence-verify' ? { 'Fn::GetAtt': [readingId, 'Jwks'] } : undefined);
    }
    expect(actionsOn(stack.functions.of('evidence-verify'), logKeyId)).toEqual([]);
  });

  it('tells every function granted a key or the archive where it is', () => {
    const idOf = (construct: { node: { defaultChild?: unknown } }) => stack.getLogicalId(construct.node.defaultChild as CfnResource);
    const variableOf: [string, string, string][] = [
      ['kms:Sign', idOf(stack.evidence.logSigningKey), 'LOG_SIGNING_KEY_ARN'],
      ['s3:GetObject', idOf(stack.evidence.checkpointBucket), 'CHECKPOINT_BUCKET'],
      ['secretsmanager:GetSecretValue', idOf(stack.evidence.receiptKeySecret), 'RECEIPT_KEY_SECRET_ARN'],
    ];
    const holders = new Set<string>();
    for (const [name, built] of stack.functions.byName) {
      const fn = resourcesOf('AWS::Lambda::Function')[stack.getLogicalId(built.node.defaultChild as CfnResource)]!;
      const variables = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
      for (const [action, resource, variable] of variableOf) {
        const granted = actionsOn(built, resource).includes(action);
        expect(variable in variables, `${name}: ${variable}`).toBe(granted);
        if (granted) holders.add(name);
      }
    }
    expect([...holders].sort()).toEqual(['checkpointer', 'consent', 'consent-public', 'consent-staff', 'evidence', 'evidence-verify', 'rights', 'stream']);
    // Only the signers may write a note; the log's verification reads them and nothing more.
    const writers = [...stack.functions.byName].filter(([, built]) => actionsOn(built, idOf(stack.evidence.checkpointBucket)).includes('s3:PutObject')).map(([name]) => name);
    expect(writers.sort()).toEqual(['checkpointer', 'stream']);
  });
});

describe('alarms', () => {
  const topicRef = () => ({ Ref: stack.getLogicalId(stack.alarms.topic.node.defaultChild as CfnResource) });
  const idOf = (construct: { node: { defaultChild?: unknown } }) => stack.getLogicalId(construct.node.defaultChild as CfnResource);
  /** The one alarm on this metric (and these dimensions, if given), which must notify the topic on alarm and on recovery. */
  const alarmOn = (namespace: string, metricName: string, dimensions?: unknown[]) => {
    const found = Object.values(resourcesOf('AWS::CloudWatch::Alarm')).filter(
      (alarm) => alarm.Properties.Namespace === namespace && alarm.Properties.MetricName === metricName && (dimensions === undefined || JSON.stringify(alarm.Properties.Dimensions) === JSON.stringify(dimensions)),
    );
    expect(found, `${namespace} ${metricName} ${JSON.stringify(dimensions)}`).toHaveLength(1);
    expect(found[0]!.Properties).toMatchObject({ AlarmActions: [topicRef()], OKActions: [topicRef()], ComparisonOperator: 'GreaterThanOrEqualToThreshold', EvaluationPeriods: 1 });
    return found[0]!.Properties;
  };
  const thresholds = config.alarmThresholds;

  it('send everything to an SNS topic the stack outputs, encrypted with a rotated key CloudWatch may use, TLS only', () => {
    const keyId = stack.getLogicalId(stack.alarms.topic.masterKey!.node.defaultChild as CfnResource);
    template.hasResourceProperties('AWS::SNS::Topic', { KmsMasterKeyId: { 'Fn::GetAtt': [keyId, 'Arn'] } });
    template.hasResourceProperties('AWS::KMS::Key', {
      EnableKeyRotation: true,
      KeyPolicy: { Statement: Match.arrayWith([Match.objectLike({ Principal: { Service: 'cloudwatch.amazonaws.com' }, Action: ['kms:Decrypt', 'kms:GenerateDataKey*'] })]) },
    });
    template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    });
    template.hasOutput('AlarmTopicArn', { Value: topicRef() });
    // No address in cdk.json: no subscription until one is given (-c alarmEmail=…).
    template.resourceCountIs('AWS::SNS::Subscription', 0);
  });

  it("watch the stream's iterator age and every dead-letter queue", () => {
    expect(alarmOn('AWS/Lambda', 'IteratorAge', [{ Name: 'FunctionName', Value: { Ref: idOf(stack.functions.byName.get('stream')!) } }])).toMatchObject({
      Statistic: 'Maximum',
      Period: 60,
      Threshold: thresholds.streamIteratorAgeSeconds * 1000,
    });
    for (const queue of [stack.queues.deadLetterQueue, stack.scanQueues.deadLetterQueue]) {
      expect(alarmOn('AWS/SQS', 'ApproximateNumberOfMessagesVisible', [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [idOf(queue), 'QueueName'] } }])).toMatchObject({ Threshold: thresholds.deadLetterMessages });
    }
  });

  it("watch each function's errors and throttles, the tracker scanner's and the document printer's too", () => {
    const functions = [...stack.functions.byName.values(), stack.scanner.scanner, stack.documentPrinter.printer];
    for (const fn of functions) {
      const dimensions = [{ Name: 'FunctionName', Value: { Ref: idOf(fn) } }];
      expect(alarmOn('AWS/Lambda', 'Errors', dimensions)).toMatchObject({ Statistic: 'Sum', Threshold: 1 });
      expect(alarmOn('AWS/Lambda', 'Throttles', dimensions)).toMatchObject({ Statistic: 'Sum', Threshold: 1 });
    }
    // Those, the iterator age, two dead-letter queues and the service's own three.
    template.resourceCountIs('AWS::CloudWatch::Alarm', functions.length * 2 + 1 + 2 + 3);
  });

  it("watch the service's own metrics: checkpoint lag (missing data breaches), parked tenants, a tenant's changes parked", () => {
    expect(alarmOn(metricNamespace, metricNames.checkpointLag)).toMatchObject({ Statistic: 'Maximum', Threshold: thresholds.checkpointLagSeconds, TreatMissingData: 'breaching' });
    expect(alarmOn(metricNamespace, metricNames.parkedTenants)).toMatchObject({ Statistic: 'Maximum', Threshold: thresholds.parkedTenants, TreatMissingData: 'notBreaching' });
    expect(alarmOn(metricNamespace, metricNames.streamTenantFailures)).toMatchObject({ Statistic: 'Sum', Threshold: 1 });
  });

  it('subscribe the address given as context, by email', () => {
    const scope = new Stack(new App(), 'AlarmsOnly');
    const fn = new lambda.Function(scope, 'Fn', { runtime: lambda.Runtime.NODEJS_22_X, handler: 'index.handler', code: lambda.Code.fromInline('exports.handler = async () => {}') });
    new OperationsAlarms(scope, 'Alarms', { functions: new Map([['fn', fn]]), streamFunction: fn, deadLetterQueues: new Map(), alarmEmail: 'oncall@example.in' });
    Template.fromStack(scope).hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'oncall@example.in' });
  });
});

describe('tracker scanner', () => {
  const scannerId = () => stack.getLogicalId(stack.scanner.scanner.node.defaultChild as CfnResource);

  it('is a container image function with about 2 GB, a timeout covering the run budget and reserved concurrency', () => {
    const fn = resourcesOf('AWS::Lambda::Function')[scannerId()]!;
    expect(fn.Properties).toMatchObject({ PackageType: 'Image', MemorySize: 2048, Timeout: scanBudget.lambdaTimeoutSeconds, ReservedConcurrentExecutions: 2, Architectures: ['x86_64'] });
    expect(scanBudget.lambdaTimeoutSeconds * 1000).toBeGreaterThan(scanBudget.runMs);
    // Synth stages the build context and records the image asset; Docker only runs at publish time.
    expect(JSON.stringify(fn.Properties.Code)).toContain('ImageUri');
  });

  it('takes one message at a time from a queue hidden longer than its timeout, with a dead-letter queue after 2 receives', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', { FunctionName: { Ref: scannerId() }, BatchSize: 1, ScalingConfig: { MaximumConcurrency: 2 } });
    template.hasResourceProperties('AWS::SQS::Queue', {
      VisibilityTimeout: scanBudget.lambdaTimeoutSeconds + 60,
      RedrivePolicy: { deadLetterTargetArn: Match.anyValue(), maxReceiveCount: 2 },
    });
    template.hasResourceProperties('AWS::Events::Rule', { ScheduleExpression: 'rate(1 hour)' });
  });

  it('may read and write the table (no Scan) and consume its queue, nothing else: all its bundle calls', async () => {
    expect(await awsServicesIn(join(repoRoot, 'functions', 'scanner', 'handler.ts'))).toEqual(['dynamodb']);
    const granted = [...new Set(actionsOf(stack.scanner.scanner))].sort();
    expect(granted).toEqual(
      [...tableActions.map((action) => `dynamodb:${action}`), 'logs:CreateLogStream', 'logs:PutLogEvents', 'sqs:ChangeMessageVisibility', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:ReceiveMessage'].sort(),
    );
  });
});

describe('document printer', () => {
  it("runs the scanner's image with the printer's handler, may only log, and only the documents function may invoke it", () => {
    const printerId = stack.getLogicalId(stack.documentPrinter.printer.node.defaultChild as CfnResource);
    const fn = resourcesOf('AWS::Lambda::Function')[printerId]!;
    expect(fn.Properties).toMatchObject({ PackageType: 'Image', Architectures: ['x86_64'], ImageConfig: { Command: ['printer.handler'] } });
    expect([...new Set(actionsOf(stack.documentPrinter.printer))].sort()).toEqual(['logs:CreateLogStream', 'logs:PutLogEvents']);
    for (const [name, built] of stack.functions.byName) {
      const invokes = actionsOn(built, printerId).includes('lambda:InvokeFunction');
      expect(invokes, name).toBe(name === 'documents');
    }
  });

  it("lets the documents function invoke exactly the functions whose pages it prints, named to it by group, and no other function invoke any", () => {
    const printedGroups = [...new Set(routeList.flatMap((route) => (route.prints ? [route.prints.group] : [])))].sort();
    expect(printedGroups).toEqual(['breaches', 'evidence', 'rights']);
    const documents = stack.functions.byName.get('documents')!;
    for (const [name, built] of stack.functions.byName) {
      const id = stack.getLogicalId(built.node.defaultChild as CfnResource);
      for (const [caller, callerFn] of stack.functions.byName) {
        const invokes = actionsOn(callerFn, id).includes('lambda:InvokeFunction');
        expect(invokes, `${caller} invokes ${name}`).toBe(caller === 'documents' && (printedGroups as string[]).includes(name));
      }
    }
    const variables = (resourcesOf('AWS::Lambda::Function')[stack.getLogicalId(documents.node.defaultChild as CfnResource)]!.Properties as { Environment: { Variables: Record<string, unknown> } }).Environment.Variables;
    expect(JSON.stringify(variables.DOCUMENT_SOURCE_FUNCTIONS)).toContain(stack.getLogicalId(stack.functions.of('evidence').node.defaultChild as CfnResource));
  });
});

describe('breach intimation queue', () => {
  it('feeds the breach worker one message at a time, at most two at once, with a dead-letter queue after 5 receives', () => {
    const workerId = stack.getLogicalId(stack.functions.byName.get('breach-worker')!.node.defaultChild as CfnResource);
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: workerId },
      BatchSize: 1,
      ScalingConfig: { MaximumConcurrency: 2 },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      EventSourceArn: { 'Fn::GetAtt': [stack.getLogicalId(stack.breachQueues.queue.node.defaultChild as CfnResource), 'Arn'] },
    });
    template.hasResourceProperties('AWS::SQS::Queue', {
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [stack.getLogicalId(stack.breachQueues.deadLetterQueue.node.defaultChild as CfnResource), 'Arn'] }, maxReceiveCount: 5 },
    });
  });
});

describe('webhook queue', () => {
  it('redrives to a 14-day dead-letter queue after 5 receives', () => {
    template.hasResourceProperties('AWS::SQS::Queue', {
      VisibilityTimeout: 60,
      RedrivePolicy: { deadLetterTargetArn: Match.anyValue(), maxReceiveCount: 5 },
    });
    template.hasResourceProperties('AWS::SQS::Queue', { MessageRetentionPeriod: 14 * 24 * 60 * 60 });
  });

  it('exports the API URL, table name and queue URL', () => {
    for (const output of ['ApiUrl', 'TableName', 'WebhookQueueUrl']) template.hasOutput(output, {});
    expect(Stack.of(stack).region).toBe('ap-south-1');
  });
});

describe('web assets', () => {
  it('serves the apps from a private bucket through CloudFront, with the API on the same domain', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
    });
    template.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    const [distribution] = Object.values(resourcesOf('AWS::CloudFront::Distribution'));
    const behaviors = (distribution!.Properties.DistributionConfig as { CacheBehaviors: Record<string, unknown>[] }).CacheBehaviors;
    const byPath = new Map(behaviors.map((behavior) => [behavior.PathPattern as string, behavior]));
    // AWS managed cache policy ids: CachingDisabled.
    expect(byPath.get('/api/*')).toMatchObject({ CachePolicyId: '4135ea2d-6df8-44a3-9df3-4b5a84be39ad', AllowedMethods: expect.arrayContaining(['POST', 'DELETE']) });
    expect(byPath.get('/portal/*')).toMatchObject({ CachePolicyId: '4135ea2d-6df8-44a3-9df3-4b5a84be39ad', FunctionAssociations: [expect.objectContaining({ EventType: 'viewer-request' })] });
    // The dashboard: CachingOptimized (each object's own Cache-Control), client routes mapped to index.html.
    expect(byPath.get('/dashboard/*')).toMatchObject({ CachePolicyId: '658327ea-f89d-4fab-a63d-7e88639e58f6', FunctionAssociations: [expect.objectContaining({ EventType: 'viewer-request' })] });
    // The widget's demo page gets the local server's strict policy too (cms.js does not: it runs under tenants' pages).
    const demoPolicy = (byPath.get('/widget/demo*') as { ResponseHeadersPolicyId?: { Ref?: string } } | undefined)?.ResponseHeadersPolicyId?.Ref;
    expect(resourcesOf('AWS::CloudFront::ResponseHeadersPolicy')[demoPolicy ?? '']?.Properties).toMatchObject({
      ResponseHeadersPolicyConfig: { SecurityHeadersConfig: { ContentSecurityPolicy: { ContentSecurityPolicy: demoContentSecurityPolicy, Override: true } } },
    });
    template.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: Match.objectLike({
        SecurityHeadersConfig: Match.objectLike({
          ContentSecurityPolicy: { ContentSecurityPolicy: Match.stringLikeRegexp("script-src 'self'; style-src 'self'; connect-src 'self'"), Override: true },
          FrameOptions: { FrameOption: 'DENY', Override: true },
        }),
      }),
    });
    template.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: Match.objectLike({
        CustomHeadersConfig: { Items: Match.arrayWith([Match.objectLike({ Header: 'Cache-Control', Value: 'no-store' }), Match.objectLike({ Header: 'X-Robots-Tag', Value: 'noindex' })]) },
        SecurityHeadersConfig: Match.objectLike({
          ReferrerPolicy: { ReferrerPolicy: 'no-referrer', Override: true },
          ContentSecurityPolicy: { ContentSecurityPolicy: Match.stringLikeRegexp("frame-ancestors 'none'"), Override: true },
        }),
      }),
    });
  });

  it('caches the widget bootstrap alone, keyed by key and language only and for at most the bound, with the policy the local edge keys by', () => {
    const [distribution] = Object.values(resourcesOf('AWS::CloudFront::Distribution'));
    const behaviors = (distribution!.Properties.DistributionConfig as { CacheBehaviors: Record<string, unknown>[] }).CacheBehaviors;
    const paths = behaviors.map((behavior) => behavior.PathPattern as string);
    const edgeRoutes = routeList.filter((route) => route.edgeCache);
    expect(edgeRoutes.map((route) => route.path)).toEqual(['/api/v1/widget/bootstrap']);
    // Ahead of /api/*, which CloudFront would otherwise match first; nothing else under /api is cached.
    expect(paths.indexOf('/api/v1/widget/bootstrap')).toBeGreaterThanOrEqual(0);
    expect(paths.indexOf('/api/v1/widget/bootstrap')).toBeLessThan(paths.indexOf('/api/*'));
    expect(paths.filter((path) => path.startsWith('/api/'))).toEqual(['/api/v1/widget/bootstrap', '/api/*']);
    const bootstrap = behaviors[paths.indexOf('/api/v1/widget/bootstrap')] as { CachePolicyId: { Ref: string }; OriginRequestPolicyId: { Ref: string }; ResponseHeadersPolicyId: { Ref: string }; AllowedMethods: string[]; Compress: boolean };
    expect([...bootstrap.AllowedMethods].sort()).toEqual(['GET', 'HEAD', 'OPTIONS']);
    expect(bootstrap.Compress).toBe(true);
    const policy = edgeCachePolicies.widgetBootstrap;
    expect(resourcesOf('AWS::CloudFront::CachePolicy')[bootstrap.CachePolicyId.Ref]!.Properties.CachePolicyConfig).toMatchObject({
      MinTTL: 0,
      DefaultTTL: policy.maxAgeSeconds,
      MaxTTL: 60,
      ParametersInCacheKeyAndForwardedToOrigin: {
        QueryStringsConfig: { QueryStringBehavior: 'whitelist', QueryStrings: ['apiKey', 'language'] },
        HeadersConfig: { HeaderBehavior: 'none' },
        CookiesConfig: { CookieBehavior: 'none' },
        EnableAcceptEncodingGzip: true,
        EnableAcceptEncodingBrotli: true,
      },
    });
    expect(resourcesOf('AWS::CloudFront::OriginRequestPolicy')[bootstrap.OriginRequestPolicyId.Ref]!.Properties.OriginRequestPolicyConfig).toMatchObject({
      QueryStringsConfig: { QueryStringBehavior: 'whitelist', QueryStrings: ['apiKey', 'language'] },
      HeadersConfig: { HeaderBehavior: 'none' },
      CookiesConfig: { CookieBehavior: 'none' },
    });
    // One answer serves every site: CORS set by CloudFront for any origin, with Age readable by the widget.
    expect(resourcesOf('AWS::CloudFront::ResponseHeadersPolicy')[bootstrap.ResponseHeadersPolicyId.Ref]!.Properties.ResponseHeadersPolicyConfig).toMatchObject({
      CorsConfig: { AccessControlAllowOrigins: { Items: ['*'] }, AccessControlAllowCredentials: false, OriginOverride: true, AccessControlExposeHeaders: { Items: expect.arrayContaining(['Age', 'ETag']) } },
    });
  });

  it('caches content-hashed files for good and the stable names (v1/cms.js) for five minutes', () => {
    template.hasResourceProperties('Custom::CDKBucketDeployment', { SystemMetadata: { 'cache-control': immutableCacheControl }, Prune: false });
    template.hasResourceProperties('Custom::CDKBucketDeployment', {
      SystemMetadata: { 'cache-control': shortCacheControl },
      DistributionPaths: ['/widget/*', '/portal/*'],
    });
    // The dashboard's index.html names its release's hashed files: never cached.
    template.hasResourceProperties('Custom::CDKBucketDeployment', { SystemMetadata: { 'cache-control': noStoreCacheControl }, Prune: false });
    expect(shortCacheControl).toBe('public, max-age=300');
  });

  it('points the emitted withdrawal links at the portal on that domain and outputs the widget URL', () => {
    for (const fn of stack.functions.byName.values()) {
      const id = stack.getLogicalId(fn.node.defaultChild as CfnResource);
      const variables = (resourcesOf('AWS::Lambda::Function')[id]!.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(JSON.stringify(variables.PORTAL_BASE_URL)).toContain('/portal');
    }
    template.hasOutput('WidgetUrl', { Value: { 'Fn::Join': ['', Match.arrayWith([Match.stringLikeRegexp('/widget/v1/cms.js')])] } });
    template.hasOutput('PortalBaseUrl', {});
    template.hasOutput('DashboardUrl', { Value: { 'Fn::Join': ['', Match.arrayWith([Match.stringLikeRegexp('/dashboard/')])] } });
  });
});
