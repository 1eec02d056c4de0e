import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bindingHolds, checkedEvidence, externalIdBinding, withoutExternalId } from '../shared/consent/external-id-erasure';
import { evidenceOf, proofHashOf } from '../shared/consent/proof';
import type { ConsentEvidence } from '../shared/consent/record';

const record = {
  proofVersion: 3 as const,
  tenantId: '0193a000-0000-7000-8000-000000000001',
  recordId: '0193a000-0000-7000-8000-000000000002',
  noticeId: '0193a000-0000-7000-8000-000000000003',
  noticeVersionNumber: 2,
  noticeTextHash: 'a'.repeat(64),
  languageShown: 'HI',
  positionShown: 'api',
  dataPrincipalHash: 'b'.repeat(64),
  externalId: 'customer-4711',
  consentGiven: { '11111111-1111-4111-8111-111111111111': true },
  createdAt: '2026-01-01T00:00:00.000Z',
  ipAddress: '192.0.2.1',
  userAgent: 'test agent',
  attribution: 'VERIFIED' as const,
  attributionMethod: 'SECRET_KEY' as const,
  attributedBy: 'key:0193a000-0000-7000-8000-000000000004',
};
const evidence: ConsentEvidence = evidenceOf(record);
const proofHash = proofHashOf(record);
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('erasing a record\'s external id keeps its evidence verifiable', () => {
  it('binds the evidence without the id to the original proof hash, and nothing else', () => {
    const binding = externalIdBinding(evidence, proofHash);
    expect(binding).toMatchObject({ recordId: record.recordId, proofHash, externalIdSha256: sha256('customer-4711') });
    const shown = withoutExternalId(evidence, binding.externalIdSha256);
    expect(JSON.stringify(shown)).not.toContain('customer-4711');
    expect(bindingHolds(shown, proofHash, binding)).toBe(true);
    // Any other field altered, another id's hash, another record's or proof's binding: refused.
    expect(bindingHolds({ ...shown, consentGiven: { '11111111-1111-4111-8111-111111111111': false } }, proofHash, binding)).toBe(false);
    expect(bindingHolds({ ...shown, externalId: { sha256: sha256('customer-4712') } }, proofHash, binding)).toBe(false);
    expect(bindingHolds(shown, 'c'.repeat(64), binding)).toBe(false);
    expect(bindingHolds(shown, proofHash, { ...binding, recordId: record.noticeId })).toBe(false);
    expect(bindingHolds(shown, proofHash, { ...binding, evidenceSha256: 'd'.repeat(64) })).toBe(false);
  });

  it('restores the evidence as hashed for whoever holds the clear id, and only for that id', () => {
    const binding = externalIdBinding(evidence, proofHash);
    const shown = withoutExternalId(evidence, binding.externalIdSha256);
    // As docs/retention.md tells her: the clear id back in place of { sha256 }, hashed in RFC 8785 form.
    const restored = JSON.parse(JSON.stringify({ ...shown, externalId: 'customer-4711' })) as ConsentEvidence;
    expect(restored).toEqual(evidence);
    expect(proofHashOf({ ...restored, proofVersion: 3 })).toBe(proofHash);
    expect(proofHashOf({ ...restored, externalId: 'customer-4712', proofVersion: 3 })).not.toBe(proofHash);
  });

  it('never binds evidence that does not hash to its proof, or a record without an id', () => {
    expect(() => externalIdBinding({ ...evidence, ipAddress: '192.0.2.2' }, proofHash)).toThrow(/does not hash/);
    expect(() => externalIdBinding({ ...evidence, externalId: null }, proofHash)).toThrow(/no external id/);
  });

  it('checks a record by its proof hash, or once its id was erased by the binding alone', () => {
    const stored = { ...record, proofHash } as unknown as Parameters<typeof checkedEvidence>[0];
    expect(checkedEvidence(stored, undefined)).toMatchObject({ payload: evidence, recomputedHash: proofHash, matches: true });
    const binding = externalIdBinding(evidence, proofHash);
    const erased = { ...stored, externalId: null, externalIdSha256: binding.externalIdSha256 };
    expect(checkedEvidence(erased, binding)).toMatchObject({ payload: { externalId: { sha256: binding.externalIdSha256 } }, recomputedHash: binding.evidenceSha256, matches: true });
    expect(checkedEvidence(erased, undefined).matches).toBe(false);
    expect(checkedEvidence({ ...erased, userAgent: 'another agent' }, binding).matches).toBe(false);
  });
});
