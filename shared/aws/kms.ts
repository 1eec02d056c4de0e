import { GetPublicKeyCommand, KMSClient, SignCommand, type GetPublicKeyCommandOutput, type SignCommandInput, type SignCommandOutput } from '@aws-sdk/client-kms';
import { clientOptions, lazyClient } from './clients';

/**
 * AWS KMS through the SDK's client: the asymmetric keys that sign checkpoints and access tokens
 * (GetPublicKey, Sign). Made on first use.
 */
const kms = /* @__PURE__ */ lazyClient('kms', () => new KMSClient(clientOptions(undefined)));

export const getPublicKey = async (keyId: string): Promise<GetPublicKeyCommandOutput> => {
  return (await kms()).send(new GetPublicKeyCommand({ KeyId: keyId }));
};

export const sign = async (input: SignCommandInput): Promise<SignCommandOutput> => {
  return (await kms()).send(new SignCommand(input));
};
