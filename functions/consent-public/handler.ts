import { createGroupHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/operation';

export const handler = createGroupHandler('consent-public', {
  verifySdkKey: async ({ caller }) => ok({ valid: true, keyId: caller.keyId }),
});
