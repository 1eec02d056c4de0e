import { expect } from 'vitest';
import type { Call } from './api';
import { mailsTo } from './mail';
import { createNotice, createPurpose, publish } from './notices';

type Tenant = { tenantId: string; slug: string; token: string };

/**
 * A tenant's data map around one principal's consent: Delivery (email, address) in the Orders
 * asset, shared with a courier and, by a lawful disclosure, with the police; Marketing (email) in
 * the CRM, shared with a mailer. The principal consented to both.
 */
export const mappedPrincipal = async (call: Call, tenant: Tenant, email: string) => {
  const post = async (path: string, body: Record<string, unknown>) => {
    const response = await call('POST', path, { token: tenant.token, body });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body.data;
  };
  const delivery = await createPurpose(call, tenant.token, { name: 'Delivery', dataCategories: ['email', 'address'] });
  const marketing = await createPurpose(call, tenant.token, { name: 'Marketing', dataCategories: ['email'] });
  const noticeId = await createNotice(call, tenant.token, [delivery, marketing]);
  expect((await publish(call, tenant.token, noticeId)).status).toBe(200);
  const consent = await call('POST', '/api/v1/consent/record', { token: tenant.token, body: { noticeId, dataPrincipalIdentifier: email, consentGiven: { [delivery]: true, [marketing]: true } } });
  expect(consent.status).toBe(201);
  const courier = await post('/api/v1/processors', { name: 'Courier Co', role: 'PROCESSOR', country: 'IN' });
  const police = await post('/api/v1/processors', { name: 'Cyber cell', role: 'FIDUCIARY', country: 'IN', lawfulDisclosure: true });
  const mailer = await post('/api/v1/processors', { name: 'Mailer Ltd', role: 'PROCESSOR', country: 'SG' });
  const orders = await post('/api/v1/data-assets', { name: 'Orders', system: 'orders database', location: 'IN', dataCategories: ['email', 'address'], purposeIds: [delivery], processorIds: [courier.processorId, police.processorId] });
  const crm = await post('/api/v1/data-assets', { name: 'CRM', system: 'crm', location: 'SG', dataCategories: ['email'], purposeIds: [marketing], processorIds: [mailer.processorId] });
  return { noticeId, delivery, marketing, courier, police, mailer, orders, crm };
};

/** The token of the newest rights link mailed to `email` (the page is PORTAL_BASE_URL/r/<token>). */
export const mailedLink = async (email: string, subject: RegExp): Promise<string> => {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const mail = (await mailsTo(email)).filter((item) => subject.test(item.subject)).at(-1);
    const token = mail?.body.text?.match(/\/portal\/r\/([A-Za-z0-9_-]+)/)?.[1];
    if (token) return token;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no mail to ${email} matching ${subject}`);
};

/** A request made on the public form and confirmed on its page; returns its link token and id. */
export const confirmedRequest = async (call: Call, slug: string, body: { type: string; email: string; details: string; nominee?: unknown; language?: string }) => {
  const made = await call('POST', '/api/v1/rights/requests/public', { body: { tenantSlug: slug, ...body } });
  expect(made.status, JSON.stringify(made.body)).toBe(202);
  const token = await mailedLink(body.email, /confirm your request/);
  const confirmed = await call('POST', `/api/v1/rights/requests/public/${token}/confirm`);
  expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
  return { token, requestId: confirmed.body.data.requestId as string };
};
