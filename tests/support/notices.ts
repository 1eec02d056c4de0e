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

/** The English text of a complete notice. */
export const englishNotice = {
  title: 'Privacy notice',
  introText: 'We process your data only for the purposes listed below.',
  contactEmail: 'dpo@shop.example',
  rightsText: 'You may access, correct and erase your personal data at any time.',
  complaintText: 'You may complain to our grievance officer or to the Data Protection Board.',
  withdrawalUrl: 'https://shop.example/withdraw',
};

export const noticeBody = (purposeIds: string[], overrides: Record<string, unknown> = {}) => ({
  ...englishNotice,
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
