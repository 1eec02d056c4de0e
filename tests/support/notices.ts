import type { Call } from './api';

/** Authoring helpers shared by the notice tests: one purpose, one complete notice. */
export const createPurpose = async (call: Call, token: string, overrides: Record<string, unknown> = {}) => {
  const response = await call('POST', '/api/v1/purposes', {
    token,
    body: { name: 'Order updates', description: 'Tell you about your orders', dataCategories: ['email', 'phone'], ...overrides },
  });
  if (response.status !== 201) throw new Error(`purpose: ${JSON.stringify(response.body)}`);
  return response.body.data.id as string;
};

export const noticeBody = (purposeIds: string[], overrides: Record<string, unknown> = {}) => ({
  title: 'Privacy notice',
  introText: 'We process your personal data for the purposes below.',
  contactEmail: 'dpo@shop.example',
  rightsText: 'You may access, correct and erase your personal data.',
  complaintText: 'You may complain to the Data Protection Board of India.',
  withdrawalUrl: 'https://shop.example/withdraw',
  purposeIds,
  purposeConfig: purposeIds.map((purposeId, index) => ({ purposeId, isRequired: index === 0, displayOrder: index })),
  ...overrides,
});

export const createNotice = async (call: Call, token: string, purposeIds: string[], overrides: Record<string, unknown> = {}) => {
  const response = await call('POST', '/api/v1/notices', { token, body: noticeBody(purposeIds, overrides) });
  if (response.status !== 201) throw new Error(`notice: ${JSON.stringify(response.body)}`);
  return response.body.data.id as string;
};

export const publish = (call: Call, token: string, noticeId: string, changeNote?: string) =>
  call('POST', `/api/v1/notices/${noticeId}/publish`, { token, body: changeNote ? { changeNote } : {} });
