import { fromEnv } from '@aws-sdk/credential-provider-env';
import type { AwsCredentialIdentityProvider } from '@smithy/types';

/**
 * Bundled in place of `@aws-sdk/credential-provider-node` (see infra/bundling.ts). Lambda hands a
 * function its role's credentials in the environment, so the rest of the SDK's default chain
 * (SSO, ini files, credential_process, web identity, IMDS, with the STS and SSO clients they
 * carry: about 90 KB per bundle) can never apply there.
 */
export const defaultProvider = (_init?: unknown): AwsCredentialIdentityProvider => fromEnv();
