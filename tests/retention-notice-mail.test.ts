import { describe, expect, it } from 'vitest';
import { offsetClock, resetClock, setClock } from '../shared/clock';
import { tenantPortalPageUrl } from '../shared/consent/portal-urls';
import { principalRecords } from '../shared/consent/store';
import { tryTransaction } from '../shared/db/transact';
import { documentsOf } from '../shared/evidence/documents';
import { readableTime } from '../shared/mail/compose';
import { dpoContactOf } from '../shared/notices/dpo-contact';
import { lastActivityOf } from '../shared/retention/activity';
import { periodEnd } from '../shared/retention/duration';
import { queueRetentionNoticeMail } from '../shared/retention/notice-mail';
import { sweepRetentionDue } from '../shared/retention/sweeper';
import { requireTenant } from '../shared/tenants/store';
import { readBuiltIn } from '../shared/words/built-in-words';
import { fillWords } from '../shared/words/fill';
import { newTenant, useApi } from './support/api';
import { useClockReset } from './support/clock';
import { recordConsent, sha256 } from './support/consent';
import { mailsTo } from './support/mail';
import { createNotice, createPurpose, publish } from './support/notices';
import { waitFor } from './support/receiver';
import { useTestWorkers } from './support/workers';

/**
 * The principal's own notice before an erasure (rule 8(2)), in process with the injectable clock:
 * a Third Schedule tenant's purpose kept P3Y from her last activity; her latest consent was in
 * Hindi, so at the due time minus 48 hours she gets one mail, in Hindi, from the SES emulator's
 * store; sweeping again, or writing the notice's mail again (a crash and a re-run), sends no second.
 */
const { call } = useApi();
useTestWorkers();
useClockReset();

const hour = 3_600_000;

describe('the retention notice mail', () => {
  it('mails her once, in Hindi, 48 hours before the erasure, naming the tenant, the purpose, the data, the time and how to keep it', async () => {
    const tenant = await newTenant(call);
    const own = (id: string) => id === tenant.tenantId;
    expect((await call('PUT', '/api/v1/retention/settings', { token: tenant.token, body: { thirdScheduleClass: 'ECOMMERCE' } })).status).toBe(200);
    const kept = await createPurpose(call, tenant.token, { name: 'Account', dataCategories: ['email'], thirdScheduleException: 'USER_ACCOUNT_ACCESS' });
    const offers = await createPurpose(call, tenant.token, { name: 'Offers', dataCategories: ['purchase history'], retention: { period: 'P3Y', from: 'LAST_ACTIVITY' } });
    const noticeId = await createNotice(call, tenant.token, [kept, offers], {
      translations: { HI: { title: 'गोपनीयता सूचना', purposes: { [offers]: { name: 'ऑफ़र और छूट' } } } },
    });
    expect((await publish(call, tenant.token, noticeId)).status).toBe(200);
    const email = `notice-mail-${tenant.tenantId}@example.in`;
    const hash = sha256(email);
    // An English consent first, then the latest one in Hindi: the mail follows the latest.
    for (const language of ['EN', 'HI']) {
      expect((await recordConsent(call, tenant.token, { noticeId, dataPrincipalIdentifier: email, consentGiven: { [kept]: true, [offers]: true }, language })).status).toBe(201);
    }
    const lastActivity = await waitFor(() => lastActivityOf(tenant.tenantId, hash).then((at) => at ?? undefined));
    // Her last activity: the activity item's (coalesced to one write a day) or her latest record's, whichever is later (retention/due.ts).
    const latest = [lastActivity, ...(await principalRecords(tenant.tenantId, hash)).map((record) => record.createdAt)].sort().at(-1)!;
    const due = periodEnd(latest, 'P3Y').getTime();
    const sweepAt = async (at: number) => {
      setClock(offsetClock(at - Date.now()));
      try {
        await sweepRetentionDue({ accept: own });
      } finally {
        resetClock();
      }
    };
    const notices = async () => (await documentsOf(tenant.tenantId, `retention:${hash}`)).filter((document) => document.documentType === 'retention.notice');

    // An hour before the notice is due: no notice, no mail.
    await sweepAt(due - 49 * hour);
    expect(await notices()).toHaveLength(0);
    expect(await mailsTo(email)).toHaveLength(0);

    await sweepAt(due - 48 * hour);
    const [notice] = await waitFor(async () => ((await notices()).length > 0 ? notices() : undefined));
    const content = (JSON.parse(notice!.canonical) as { content: { dueAt: string; purposeIds: string[] } }).content;
    expect(content.purposeIds).toEqual([offers]);
    // Noticed at the due time minus 48 hours (a sweep a moment late moves the due time with it, never the notice's hours).
    expect(Date.parse(content.dueAt) - due).toBeGreaterThanOrEqual(0);
    expect(Date.parse(content.dueAt) - due).toBeLessThan(60_000);

    const mails = await waitFor(async () => {
      const found = await mailsTo(email);
      return found.length > 0 ? found : undefined;
    });
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    const { name } = await requireTenant(tenant.tenantId);
    const hindi = (await readBuiltIn('HI'))!.words;
    expect(mail!.subject).toBe(fillWords(hindi['mail.retention.subject']!, { tenant: name }));
    const text = mail!.body.text!;
    expect(text).toContain(
      fillWords(hindi['mail.retention.text']!, { tenant: name, dueAt: readableTime(content.dueAt, 'HI', (await requireTenant(tenant.tenantId)).timeZone), purposes: 'ऑफ़र और छूट', data: 'purchase history' }),
    );
    expect(text).toContain(fillWords(hindi['mail.retention.keep']!, { tenant: name }));
    // The tenant's page on the service's portal (her consent, a rights request) and its DPO's contact.
    expect(text).toContain(fillWords(hindi['mail.retention.link']!, { tenant: name, url: tenantPortalPageUrl(tenant.slug)! }));
    expect(text).toContain(fillWords(hindi['mail.retention.contact']!, { contact: (await dpoContactOf(await requireTenant(tenant.tenantId)))! }));
    expect(mail!.body.html).toContain('<html lang="hi" dir="ltr">');
    // Only the purpose that falls due is named: the excepted one stays out of it.
    expect(text).not.toContain('Account');

    // Swept again before the due time, and the notice's mail written again as a re-run after a crash would: no second mail.
    await sweepAt(due - 24 * hour);
    expect(await tryTransaction(await queueRetentionNoticeMail({ tenantId: tenant.tenantId, identifierHash: hash, purposeIds: [offers], dueAt: content.dueAt }))).not.toBe('ok');
    expect(await notices()).toHaveLength(1);
    expect(await mailsTo(email)).toHaveLength(1);
  });

  it('sends no mail to a principal without a sealed email: the tenant is told by webhook alone', async () => {
    const tenant = await newTenant(call);
    expect(await queueRetentionNoticeMail({ tenantId: tenant.tenantId, identifierHash: sha256(`nobody-${tenant.tenantId}@example.in`), purposeIds: [], dueAt: new Date().toISOString() })).toEqual([]);
  });
});
