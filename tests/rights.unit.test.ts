import { describe, expect, it } from 'vitest';
import type { ConsentRecord } from '../shared/consent/record';
import type { DataAsset, Processor } from '../shared/data-map/data-map';
import { signCompactJws } from '../shared/evidence/jws';
import { receiptType } from '../shared/evidence/receipt';
import { jwks, seedSigner } from '../shared/evidence/signer';
import { closureReceiptType, verifyClosureReceipt } from '../shared/rights/evidence';
import { dueShards, phaseOf, rightsKeys } from '../shared/rights/keys';
import { daysLeft, dueWorkAt, effectiveStatus, firstDueStage, type RightsRequest } from '../shared/rights/request';
import { requestReplace } from '../shared/rights/store';
import { assembleSummary, currentPurposes } from '../shared/rights/summary';

const day = 86_400_000;
const at = (offsetDays: number) => new Date(Date.UTC(2026, 0, 1) + offsetDays * day).toISOString();

const request = (overrides: Partial<RightsRequest> = {}): RightsRequest => ({
  tenantId: 't1',
  requestId: '01a214e3-273d-7082-9651-78c4e3fb8e53',
  requestType: 'ACCESS',
  status: 'SUBMITTED',
  channel: 'WEB',
  principalHash: 'a'.repeat(64),
  principalEmail: 'p@example.in',
  language: 'EN',
  details: 'x',
  nominee: null,
  createdAt: at(0),
  confirmBy: null,
  submittedAt: at(0),
  dueAt: at(30),
  outcome: null,
  response: null,
  resolvedAt: null,
  timeline: [],
  assets: [],
  loggedBy: null,
  tokenHashes: [],
  withdrawalId: null,
  closureReceipt: null,
  submissionDocumentId: null,
  resolutionDocumentId: null,
  dueStage: 'REMINDER',
  version: 2,
  ...overrides,
});

describe('rights requests: deadlines and keys', () => {
  it('reminds a week before the due date, or goes straight to overdue for a period of a week or less', () => {
    expect(firstDueStage(at(0), at(30))).toBe('REMINDER');
    expect(firstDueStage(at(0), at(7))).toBe('OVERDUE');
    expect(dueWorkAt(request())).toBe(at(23));
    expect(dueWorkAt(request({ dueStage: 'OVERDUE' }))).toBe(at(30));
    expect(dueWorkAt(request({ status: 'UNVERIFIED', dueStage: 'EXPIRY', confirmBy: at(1), dueAt: null }))).toBe(at(1));
    expect(dueWorkAt(request({ dueStage: null }))).toBeNull();
  });

  it('counts days left while open, and calls an unconfirmed request past its day EXPIRED before the sweep does', () => {
    expect(daysLeft(request(), new Date(at(28)))).toBe(2);
    expect(daysLeft(request(), new Date(at(31)))).toBe(-1);
    expect(daysLeft(request({ status: 'RESOLVED' }), new Date(at(1)))).toBeNull();
    expect(effectiveStatus(request({ status: 'UNVERIFIED', confirmBy: at(1) }), new Date(at(2)))).toBe('EXPIRED');
    expect(effectiveStatus(request({ status: 'UNVERIFIED', confirmBy: at(1) }), new Date(at(0.5)))).toBe('UNVERIFIED');
  });

  it('writes a request over its version, with its listing phase and due entry derived from its state', () => {
    const put = requestReplace(request(), 2).item.Put!;
    expect(put.ConditionExpression).toBe('version = :version');
    expect(put.Item).toMatchObject({ SK: `RIGHTS#${request().requestId}`, GSI1PK: 'RIGHTS#t1#OPEN', GSI2SK: `${at(23)}#t1#${request().requestId}`, dueStage: 'REMINDER', type: 'RightsRequest', requestType: 'ACCESS' });
    expect(put.Item?.GSI2PK).toMatch(new RegExp(`^RIGHTSDUE#[0-${dueShards - 1}]$`));
    const resolved = requestReplace(request({ status: 'RESOLVED', dueStage: null }), 3).item.Put!.Item!;
    expect(resolved).toMatchObject({ GSI1PK: 'RIGHTS#t1#RESOLVED' });
    expect(resolved).not.toHaveProperty('GSI2PK');
    expect(['SUBMITTED', 'IN_PROGRESS'].map((status) => phaseOf(status as 'SUBMITTED'))).toEqual(['OPEN', 'OPEN']);
    expect(new Set(Array.from({ length: 64 }, (_, index) => rightsKeys.due('t', `request-${index}`, at(0), 'EXPIRY').GSI2PK)).size).toBe(dueShards);
  });
});

describe('the access summary', () => {
  const purpose = (purposeId: string, name: string, dataCategories: string[]) => ({ purposeId, tenantId: 't1', name, description: '', dataCategories, legalBasis: 'CONSENT' as const, createdAt: at(0), updatedAt: at(0) });
  const asset = (assetId: string, name: string, purposeIds: string[], processorIds: string[], dataCategories: string[]): DataAsset => ({
    tenantId: 't1', assetId, name, description: '', system: name.toLowerCase(), location: 'IN', dataCategories, purposeIds, processorIds, retentionDays: null, revision: 1, createdAt: at(0), updatedAt: at(0),
  });
  const processor = (processorId: string, name: string, lawfulDisclosure = false): Processor => ({
    tenantId: 't1', processorId, name, role: 'PROCESSOR', contactEmail: null, country: 'IN', description: '', lawfulDisclosure, linkedAssets: 1, createdAt: at(0), updatedAt: at(0),
  });
  const record = { recordId: 'r1', noticeId: 'n1', noticeTitle: 'Privacy', noticeVersionNumber: 2, languageShown: 'HI', createdAt: at(1), consentGiven: { p1: true, p2: true, p3: false }, withdrawnPurposes: ['p2'], isWithdrawn: false, withdrawnAt: null } as unknown as ConsentRecord;

  it('names what is shared through the assets of the purposes consented to, with their categories, and never a lawful disclosure', () => {
    const summary = assembleSummary({
      principalHash: 'a'.repeat(64),
      tenant: { name: 'Shop' },
      dpoContact: 'dpo@shop.example',
      records: [record],
      purposes: [purpose('p1', 'Delivery', ['address']), purpose('p2', 'Marketing', ['email']), purpose('p3', 'Research', ['usage'])],
      assets: [asset('a1', 'Orders', ['p1'], ['c', 'police'], ['address', 'phone']), asset('a2', 'CRM', ['p2'], ['c', 'm'], ['email']), asset('a3', 'Lab', ['p3'], ['x'], ['usage'])],
      processors: [processor('c', 'Courier'), processor('m', 'Mailer'), processor('police', 'Police', true), processor('x', 'Lab partner')],
      nominees: [{ name: 'Meera', email: 'm@example.in', relationship: 'Sister', nominatedAt: at(2), requestId: 'q' }],
      generatedAt: at(3),
    });
    expect(summary.sharedWith.map((entry) => [entry.name, entry.dataCategories])).toEqual([['Courier', ['address', 'email', 'phone']], ['Mailer', ['email']]]);
    // Marketing was withdrawn: what the data was shared for stays listed, but it is no current use (issue 37).
    expect(summary.purposes.map((entry) => [entry.name, entry.lawfulBasis, entry.assets.map((item) => item.name)])).toEqual([['Delivery', 'CONSENT', ['Orders']]]);
    expect(summary.records[0]).toMatchObject({ language: 'HI', noticeVersion: 2, purposesGranted: [{ name: 'Delivery' }, { name: 'Marketing' }], purposesWithdrawn: [{ name: 'Marketing' }], fullyWithdrawn: false });
    expect(summary.nominees).toEqual([{ name: 'Meera', relationship: 'Sister', nominatedAt: at(2) }]);
  });
});

describe('the purposes in use now', () => {
  const base = { recordId: 'r', noticeId: 'n', withdrawnPurposes: [], isWithdrawn: false } as unknown as ConsentRecord;
  const at2 = (hours: number) => new Date(Date.parse('2026-11-20T10:00:00.000Z') + hours * 3_600_000).toISOString();
  it('are those the newest record naming them grants and has not withdrawn, or those of a legitimate use, stated so', () => {
    const older = { ...base, createdAt: at2(0), consentGiven: { a: true, b: true, c: true, d: false } };
    const newer = { ...base, recordId: 'r2', createdAt: at2(1), consentGiven: { a: true, b: false }, withdrawnPurposes: ['a'] };
    const fully = { ...base, recordId: 'r3', createdAt: at2(2), consentGiven: { c: true }, isWithdrawn: true };
    const bases = new Map([['d', { legalBasis: 'LEGITIMATE_USE' as const }]]);
    expect([...currentPurposes([newer, older, fully], bases)]).toEqual([['d', 'LEGITIMATE_USE']]);
    expect([...currentPurposes([older], new Map())].sort()).toEqual([['a', 'CONSENT'], ['b', 'CONSENT'], ['c', 'CONSENT']]);
  });
});

describe('rights words and receipts', () => {
  it('takes a closure receipt only as a closure receipt, never a consent receipt signed by the same key', async () => {
    const signer = await seedSigner('unit-test-seed-of-enough-length-0123456789', 'consent-service-receipts');
    const keys = jwks([signer]).keys;
    const claims = { rid: 'r', rt: 'GRIEVANCE', out: 'REJECTED', rat: at(1), tid: 't1', dh: 'b'.repeat(64), iat: 1 };
    expect(verifyClosureReceipt(await signCompactJws(closureReceiptType, claims, signer), keys)).toEqual(claims);
    expect(verifyClosureReceipt(await signCompactJws(receiptType, claims, signer), keys)).toBeUndefined();
  });
});
