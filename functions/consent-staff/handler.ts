import { childInputOf } from '../../shared/children/decision';
import { recordConsent } from '../../shared/consent/recording';
import { createWithdrawalToken, withdrawForPrincipal } from '../../shared/consent/withdrawal-routes';
import { createGroupHandler } from '../../shared/http/handler';
import { created, ok } from '../../shared/http/operation';
import { consentStaffRoutes } from '../../shared/http/routes/consent';
import { withdrawalStaffRoutes } from '../../shared/http/routes/withdrawals';

/**
 * What a DPO does from the dashboard for a principal: record a consent (as staff, against the
 * published notice), withdraw one, or make a single-use withdrawal link. Apart from the consent
 * screens' reads (functions/consent), which then load none of the recording and withdrawal code.
 */
export const handler = createGroupHandler('consent-staff', { ...consentStaffRoutes, ...withdrawalStaffRoutes }, {
  recordConsent: async ({ caller, body, meta }) =>
    created(
      await recordConsent({
        tenantId: caller.tenantId,
        noticeId: body.noticeId,
        principal: { by: 'staff', userId: caller.userId, identifier: body.dataPrincipalIdentifier },
        externalId: body.externalId,
        consentGiven: body.consentGiven,
        ipAddress: body.ipAddress ?? meta.ip,
        userAgent: body.userAgent ?? meta.userAgent,
        language: body.language,
        position: body.positionShown,
        channel: 'DASHBOARD',
        countsAgainstMonthlyLimit: false,
        issueWithdrawalKey: false,
        child: childInputOf(body),
      }),
    ),
  withdrawConsent: async ({ caller, body }) => ok(await withdrawForPrincipal(caller.tenantId, caller.userId, body)),
  createWithdrawalToken: async ({ caller, body }) => created(await createWithdrawalToken(caller.tenantId, body)),
});
