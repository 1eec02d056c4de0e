import { CustomResource, Duration, Stack, Validations, type CfnResource } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as cr from 'aws-cdk-lib/custom-resources';
import { join } from 'node:path';
import { Construct } from 'constructs';
import { acknowledgeWildcards } from './compliance';
import { lambdaBundling } from './bundling';

/**
 * The access-token key's generation, and the ARNs of earlier generations whose tokens are still
 * accepted while they expire: CDK context (`-c tokenKeyGeneration=2 -c previousTokenKeyArns=arn:…`),
 * the rotation docs/deploying.md describes.
 */
export const tokenKeyContext = (scope: Construct): { generation: number; previous: string[] } => {
  const generation = Number(scope.node.tryGetContext('tokenKeyGeneration') ?? 1);
  if (!Number.isInteger(generation) || generation < 1) throw new Error('context tokenKeyGeneration must be a whole number from 1');
  const previous = String(scope.node.tryGetContext('previousTokenKeyArns') ?? '')
    .split(',')
    .map((arn) => arn.trim())
    .filter(Boolean);
  for (const arn of previous) if (!/^arn:aws[\w-]*:kms:[\w-]+:\d{12}:key\/[\w-]+$/.test(arn)) throw new Error(`context previousTokenKeyArns: ${arn} is not a KMS key ARN`);
  return { generation, previous };
};

export interface TokenPublicKeysProps {
  /** The key auth signs with now. */
  signingKey: kms.IKey;
  /** A rotation's previous keys, whose tokens are accepted until they expire (tokenKeyContext). */
  previousKeyArns: string[];
  /** The checkpoint key, whose public half the log's verification is given (LOG_PUBLIC_KEYS), if the stack has one. */
  logSigningKey?: kms.IKey;
  /** The reader's entry (functions/token-public-keys/handler.ts), and the repository root its lock file and tsconfig are found from. */
  entry: string;
  projectRoot: string;
  /** How long the reader's and the provider framework's logs are kept (the service's own logs' period). */
  logRetention: logs.RetentionDays;
}

/**
 * The access-token keys' public halves, read from KMS at deploy: a custom resource whose reader
 * (functions/token-public-keys) calls kms:GetPublicKey for each key and answers the JWKS, which
 * the stack puts in every HTTP function's environment (TOKEN_PUBLIC_KEYS). So a verifying function
 * neither bundles the KMS client nor calls KMS on a cold start, and only the reader and the auth
 * function may read the key. The resource's properties are the key ARNs: a rotation's new list
 * reads them again (docs/deploying.md). The CDK's AwsCustomResource cannot be used: it decodes the
 * binary PublicKey as UTF-8 (aws-cdk issue 19065).
 */
export class TokenPublicKeys extends Construct {
  /** The JWKS as JSON, a deploy-time token. */
  readonly jwks: string;
  /** The checkpoint key's public half as a JWKS in JSON, a deploy-time token (when logSigningKey was given). */
  readonly logJwks: string | undefined;
  readonly reader: NodejsFunction;

  constructor(scope: Construct, id: string, props: TokenPublicKeysProps) {
    super(scope, id);
    // Whose tokens are accepted: the signing key's, then those of a rotation's previous keys.
    const keyArns = [props.signingKey.keyArn, ...props.previousKeyArns];
    const logGroup = new logs.LogGroup(this, 'ReaderLogs', { retention: props.logRetention });
    const role = new iam.Role(this, 'ReaderRole', { description: 'consent-service access-token public key reader (deploy time)', assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com') });
    role.addToPolicy(new iam.PolicyStatement({ actions: ['logs:CreateLogStream', 'logs:PutLogEvents'], resources: [`${logGroup.logGroupArn}:*`] }));
    role.addToPolicy(new iam.PolicyStatement({ actions: ['kms:GetPublicKey'], resources: keyArns }));
    if (props.logSigningKey) role.addToPolicy(new iam.PolicyStatement({ actions: ['kms:GetPublicKey'], resources: [props.logSigningKey.keyArn] }));
    Validations.of(role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${Stack.of(this).getLogicalId(logGroup.node.defaultChild as CfnResource)}.Arn>:*]`,
      reason: "Lambda names its own log streams inside the function's log group; the grant stops at that group.",
    });
    this.reader = new NodejsFunction(this, 'Reader', {
      role,
      description: 'consent-service: reads the access-token keys\' public halves at deploy',
      entry: props.entry,
      handler: 'handler',
      projectRoot: props.projectRoot,
      depsLockFilePath: join(props.projectRoot, 'package-lock.json'),
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: 256,
      timeout: Duration.seconds(30),
      logGroup,
      environment: { CMS_STAGE: 'aws', NODE_OPTIONS: '--enable-source-maps', CMS_FUNCTION_TIMEOUT_SECONDS: '30' },
      bundling: lambdaBundling,
    });
    Validations.of(this.reader).acknowledge({
      id: 'AwsSolutions-L1',
      reason: 'The runtime is pinned to the Node.js major the bundles target (infra/bundling.ts) and the tests run; it moves deliberately, with both.',
    });

    const provider = new cr.Provider(this, 'Provider', {
      onEventHandler: this.reader,
      logGroup: new logs.LogGroup(this, 'ProviderLogs', { retention: props.logRetention }),
    });
    acknowledgeWildcards(provider, "The CDK's provider framework invokes the reader (any version of it); its grants are the CDK's, scoped to that one function.");
    Validations.of(provider).acknowledge({ id: 'AwsSolutions-L1', reason: "The provider framework's runtime is chosen by the CDK release; it runs only at deploy time." });
    Validations.of(provider).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      reason: "The provider framework's role is created by the CDK with the basic execution policy; it runs only at deploy time.",
    });

    const keys = new CustomResource(this, 'Keys', {
      serviceToken: provider.serviceToken,
      resourceType: 'Custom::TokenPublicKeys',
      properties: { KeyArns: keyArns },
    });
    this.jwks = keys.getAttString('Jwks');
    // The checkpoint key's public half, read by the same reader, named as the checkpoint signer names it.
    this.logJwks = props.logSigningKey
      ? new CustomResource(this, 'LogKeys', {
          serviceToken: provider.serviceToken,
          resourceType: 'Custom::LogPublicKeys',
          properties: { KeyArns: [props.logSigningKey.keyArn], KeyKind: 'log' },
        }).getAttString('Jwks')
      : undefined;
  }
}
