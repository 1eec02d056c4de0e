import { createHash } from 'node:crypto';
import type { Call } from './api';
import { createNotice, createPurpose, publish } from './notices';

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A tenant's published notice with two purposes (the first required), ready for consent. */
export const publishedNotice = async (call: Call, token: string) => {
  const required = await createPurpose(call, token, { name: 'Order processing', dataCategories: ['email', 'address'] });
  const optional = await createPurpose(call, token, { name: 'Marketing', dataCategories: ['email'] });
  const noticeId = await createNotice(call, token, [required, optional]);
  const published = await publish(call, token, noticeId);
  if (published.status !== 200) throw new Error(`publish: ${JSON.stringify(published.body)}`);
  return { noticeId, required, optional };
};

export const recordConsent = (call: Call, token: string, body: Record<string, unknown>) =>
  call('POST', '/api/v1/consent/record', { token, body });
