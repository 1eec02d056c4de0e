import { createGroupHandler } from '../../shared/http/handler';
import { sdkRoutes } from '../../shared/http/routes/sdk';
import { widgetRoutes } from '../../shared/http/routes/widget';
import { publicWithdrawalRoutes } from '../../shared/http/routes/withdrawals';
import { created, ok } from '../../shared/http/operation';
import { recordConsent } from '../../shared/consent/recording';
import { childInputOf } from '../../shared/children/decision';
import { withdrawPublic } from '../../shared/consent/withdraw-public';
import { emailClaimAttribution } from '../../shared/consent/withdrawal-attribution';
import { withdrawFromWidget } from '../../shared/consent/withdraw-widget';
import { etagMatches } from '../../shared/etag';
import { readPublicNotice } from '../../shared/notices/public-notice';
import { widgetBootstrap } from '../../shared/widget/bootstrap';

export const handler = createGroupHandler('consent-public', { ...sdkRoutes, ...widgetRoutes, ...publicWithdrawalRoutes }, {
  sdkRecord: async ({ caller, body, meta }) =>
    created(
      await recordConsent({
        tenantId: caller.tenantId,
        noticeId: body.noticeId,
        principal: {
          by: 'apiKey',
          keyId: caller.keyId,
          keyKind: caller.kind,
          ip: meta.ip,
          identifier: body.identifier,
          identifierHash: body.identifierHash,
          identifierSignature: body.identifierSignature,
          identifierSignedAt: body.identifierSignedAt,
        },
        externalId: body.externalId,
        consentGiven: body.purposes,
        ipAddress: meta.ip,
        userAgent: body.userAgent ?? meta.userAgent,
        language: body.language,
        position: body.positionShown,
        channel: 'SDK',
        decision: body.status,
        countsAgainstMonthlyLimit: true,
        issueWithdrawalKey: true,
        child: childInputOf(body),
        decisionField: 'purposes',
      }),
    ),
  sdkWithdraw: async ({ caller, body }) => ok(await withdrawFromWidget(caller.tenantId, body)),
  withdrawPublic: async ({ caller, body, meta }) => ok(await withdrawPublic(caller.tenantId, body, emailClaimAttribution(caller, meta))),
  getPublicNotice: async ({ caller }) => ok(await readPublicNotice(caller.tenantId)),
  verifySdkKey: async ({ caller }) => ok({ valid: true, keyId: caller.keyId }),
  getWidgetBootstrap: async ({ caller, query, meta }) => {
    const { body, etag } = await widgetBootstrap(caller.tenantId, query.language);
    return etagMatches(meta.headers['if-none-match'], etag) ? { status: 304, headers: { ETag: etag }, serialized: '' } : { headers: { ETag: etag }, serialized: body };
  },
});
