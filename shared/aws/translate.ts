import { JsonClient } from './json-service';
import { endpointOf } from './request';

/** Amazon Translate (awsJson 1.1): machine drafts of label sets (shared/translation/amazon-translator.ts). */
export const translate = /* @__PURE__ */ new JsonClient({ endpoint: () => endpointOf('translate', undefined), targetPrefix: 'AWSShineFrontendService_20170701', version: '1.1' });
