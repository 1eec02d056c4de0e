import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { clientOptions, lazyClient } from './clients';

/** AWS Secrets Manager through the SDK's client, made on first use: the receipt key's secret (shared/evidence/signers.ts). */
const secretsManager = /* @__PURE__ */ lazyClient('secretsmanager', () => new SecretsManagerClient(clientOptions(undefined)));

export const secretString = async (secretId: string): Promise<string | undefined> => {
  return (await (await secretsManager()).send(new GetSecretValueCommand({ SecretId: secretId }))).SecretString;
};
