import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';

/**
 * What the evidence log is signed and archived with: the KMS key that signs checkpoints (its
 * private half never leaves KMS), the bucket the signed checkpoint notes are archived in under
 * Object Lock in compliance mode (no one, root included, can delete or shorten a lock), and the
 * secret the receipt key is derived from. All three outlive the stack: evidence signed with them
 * must stay verifiable.
 */
export class EvidenceKeys extends Construct {
  readonly logSigningKey: kms.Key;
  readonly checkpointBucket: s3.Bucket;
  readonly receiptKeySecret: secretsmanager.Secret;

  constructor(scope: Construct, id: string) {
    super(scope, id);

    this.logSigningKey = new kms.Key(this, 'LogSigningKey', {
      description: 'Signs the checkpoints of the consent evidence logs (ECDSA P-256)',
      keySpec: kms.KeySpec.ECC_NIST_P256,
      keyUsage: kms.KeyUsage.SIGN_VERIFY,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.checkpointBucket = new s3.Bucket(this, 'CheckpointArchive', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      versioned: true,
      objectLockEnabled: true,
      // The same 10 years as CHECKPOINT_RETENTION_DAYS' default (shared/config/evidence.ts).
      objectLockDefaultRetention: s3.ObjectLockRetention.compliance(Duration.days(3650)),
      removalPolicy: RemovalPolicy.RETAIN,
    });
    // Object Lock keeps every version, but a put without If-None-Match would stack a new current
    // version on an archived note (what a GET returns): every put must be a first write of its key.
    this.checkpointBucket.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'WriteOnceNotes',
        effect: iam.Effect.DENY,
        principals: [new iam.AnyPrincipal()],
        actions: ['s3:PutObject'],
        resources: [this.checkpointBucket.arnForObjects('*')],
        conditions: { Null: { 's3:if-none-match': 'true' } },
      }),
    );
    Validations.of(this.checkpointBucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'Objects are written once by the service and locked in compliance mode; CloudTrail records who wrote them. Access logs would need a second, unlocked bucket and add nothing to evidence that cannot be changed.',
    });

    this.receiptKeySecret = new secretsmanager.Secret(this, 'ReceiptKeySecret', {
      description: 'Seed of the Ed25519 key that signs consent receipts',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(this.receiptKeySecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason: 'Rotating the seed changes the receipt key: receipts already issued must stay verifiable against the published key, so a new key is introduced by hand, beside the old one.',
    });
  }
}
