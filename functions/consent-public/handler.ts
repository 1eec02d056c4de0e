import { createGroupHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/operation';
import { readPublicNotice } from '../../shared/notices/public-notice';

export const handler = createGroupHandler('consent-public', {
  getPublicNotice: async ({ caller }) => ok(await readPublicNotice(caller.tenantId)),
  verifySdkKey: async ({ caller }) => ok({ valid: true, keyId: caller.keyId }),
});
