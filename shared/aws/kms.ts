import { JsonClient } from './json-service';
import { endpointOf } from './request';

/** AWS KMS (awsJson 1.1): the checkpoint key's GetPublicKey and Sign (shared/evidence/signer.ts). Blobs travel base64. */
export const kms = /* @__PURE__ */ new JsonClient({ endpoint: () => endpointOf('kms', undefined), targetPrefix: 'TrentService', version: '1.1' });
