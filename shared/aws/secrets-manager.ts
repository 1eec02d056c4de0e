import { JsonClient } from './json-service';
import { endpointOf } from './request';

/** AWS Secrets Manager (awsJson 1.1): the receipt key's secret (shared/evidence/signers.ts). */
export const secretsManager = /* @__PURE__ */ new JsonClient({ endpoint: () => endpointOf('secretsmanager', undefined), targetPrefix: 'secretsmanager', version: '1.1' });
