import type { CdkCustomResourceEvent, CdkCustomResourceResponse } from 'aws-lambda';
import { publicKeyNames, tokenPublicKeys } from '../../shared/auth/token-public-keys';

/**
 * A deploy-time custom resource (infra/token-keys.ts, through the CDK's provider framework): reads
 * the public halves of the access-token keys from KMS once per deploy that changes them, so the
 * HTTP functions are given them in their environment instead of each calling kms:GetPublicKey on
 * a cold start; and the checkpoint key's, for the log's verification (KeyKind `log`).
 * CloudFormation's own AwsCustomResource cannot do this: it decodes the binary PublicKey as UTF-8,
 * which mangles the DER (aws-cdk issue 19065). Its output is the JWKS as JSON
 * (`Jwks`); its properties are the key ARNs, so a rotation's new list reads the keys again.
 */
export const handler = async (event: CdkCustomResourceEvent): Promise<CdkCustomResourceResponse<{ Jwks: string }>> => {
  // Reading a public key changes nothing, so there is nothing to undo.
  if (event.RequestType === 'Delete') return { PhysicalResourceId: event.PhysicalResourceId };
  const keyArns: unknown = event.ResourceProperties.KeyArns;
  if (!Array.isArray(keyArns) || !keyArns.every((arn): arn is string => typeof arn === 'string')) throw new Error('KeyArns must be a list of KMS key ARNs');
  // Which keys these are (`token` when not said, as before the checkpoint key was read too): they are named as their signer names them.
  const kind: unknown = event.ResourceProperties.KeyKind ?? 'token';
  if (kind !== 'token' && kind !== 'log') throw new Error('KeyKind must be token or log');
  const keys = await tokenPublicKeys(keyArns, publicKeyNames[kind]);
  return { PhysicalResourceId: keys.keys.map((key) => key.kid).join(','), Data: { Jwks: JSON.stringify(keys) } };
};
