import { config } from '../config';

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/** What the local engines accept: any credentials will do, these say where they came from. */
export const localCredentials: AwsCredentials = { accessKeyId: 'local', secretAccessKey: 'local' };

/**
 * Lambda hands a function its role's credentials in the environment, so that is the only source
 * read: the SDK's longer chain (ini files, SSO, IMDS) can never apply there. Read at each request.
 */
export const environmentCredentials = (): AwsCredentials => {
  const { accessKeyId, secretAccessKey, sessionToken } = config.awsCredentials;
  if (!accessKeyId || !secretAccessKey) throw Object.assign(new Error('AWS credentials are not in the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY)'), { name: 'CredentialsProviderError' });
  return { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) };
};
