import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { describe, expect, it } from 'vitest';
import { bindingProblem, withErasedFields, type RecordBinding } from '../shared/consent/erasure-binding';
import { erasureUpdate, withdrawalErasureUpdate } from '../shared/consent/erasure-store';
import { bindingHolds, checkedEvidence, checkedWithdrawal, recordBinding, withdrawalBinding } from '../shared/consent/evidence-erasure';
import { evidenceOf, proofHashOf } from '../shared/consent/proof';
import type { ConsentEvidence, ConsentRecord } from '../shared/consent/record';
import { withdrawalHashOf } from '../shared/consent/withdrawal-evidence';

/** The offline verifiers' copy of the rule (plain .mjs: the scripts need nothing but Node.js). */
const offline: { bindingProblem: typeof bindingProblem; recordBindingsOf(content: unknown): unknown[] } = await import(new URL('../scripts/evidence-checks.mjs', import.meta.url).href);

const purpose = '11111111-1111-4111-8111-111111111111';
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
  consentGiven: { [purpose]: true },
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
const hashOf = (value: unknown) => sha256(canonicalize(value)!);
const withdrawalItem = {
  tenantId: record.tenantId,
  withdrawalId: '0193a000-0000-7000-8000-000000000005',
  dataPrincipalHash: record.dataPrincipalHash,
  recordIds: [record.recordId],
  requestedPurposeIds: [purpose],
  purposeIds: [purpose],
  isFullWithdrawal: true,
  method: 'WEB_PORTAL',
  reason: 'I moved to another city',
  actor: 'principal:portal',
  withdrawnAt: '2026-01-02T00:00:00.000Z',
  principalEmail: 'her@example.in',
};

/** Both rules, the service's (and the dashboard's) and the offline scripts', agree on every case. */
const problems = (kind: 'record' | 'withdrawal', shown: Record<string, unknown>, id: string, hash: string, binding: unknown) => {
  const service = bindingProblem(kind, shown, hashOf(shown), id, hash, binding as RecordBinding);
  expect(offline.bindingProblem(kind, shown, hashOf(shown), id, hash, binding as RecordBinding)).toBe(service);
  return service;
};

describe("erasing values of a record's evidence keeps it verifiable", () => {
  it('binds the evidence with its external id, user agent and IP address as their SHA-256 to the original proof hash, and nothing else', () => {
    const binding = recordBinding(evidence, proofHash)!;
    expect(binding).toEqual({
      recordId: record.recordId,
      proofHash,
      externalIdSha256: sha256('customer-4711'),
      userAgentSha256: sha256('test agent'),
      ipAddressSha256: sha256('192.0.2.1'),
      evidenceSha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const shown = withErasedFields({ ...evidence }, { externalId: binding.externalIdSha256!, userAgent: binding.userAgentSha256!, ipAddress: binding.ipAddressSha256! });
    for (const value of ['customer-4711', 'test agent', '192.0.2.1']) expect(JSON.stringify(shown)).not.toContain(value);
    expect(bindingHolds('record', shown, record.recordId, proofHash, binding)).toBe(true);
    expect(problems('record', shown, record.recordId, proofHash, binding)).toBeUndefined();
    // A choice altered, another value's hash swapped in, another record's or proof's binding, a field it does not name shown as erased: refused.
    expect(problems('record', { ...shown, consentGiven: { [purpose]: false } }, record.recordId, proofHash, binding)).toMatch(/not the evidence it bound to the proof hash/);
    expect(problems('record', { ...shown, userAgent: { sha256: sha256('another agent') } }, record.recordId, proofHash, binding)).toMatch(/its userAgent is not the erased value/);
    expect(problems('record', { ...shown, userAgent: shown.ipAddress }, record.recordId, proofHash, binding)).toMatch(/its userAgent is not the erased value/);
    expect(problems('record', { ...shown, userAgent: { sha256: sha256('another agent') } }, record.recordId, proofHash, { ...binding, userAgentSha256: sha256('another agent') })).toMatch(/not the evidence it bound/);
    expect(problems('record', shown, record.recordId, 'c'.repeat(64), binding)).toMatch(/another hash/);
    expect(problems('record', shown, record.recordId, proofHash, { ...binding, recordId: record.noticeId })).toMatch(/another record/);
    expect(problems('record', shown, record.recordId, proofHash, { ...binding, evidenceSha256: 'd'.repeat(64) })).toMatch(/not the evidence it bound/);
    const { ipAddressSha256: _ip, ...withoutIp } = binding;
    expect(problems('record', shown, record.recordId, proofHash, withoutIp)).toMatch(/its ipAddress shows as erased, and the binding does not name it/);
  });

  it('can hide a value only, never a choice: a binding naming any other field is refused, even one computed over that evidence', () => {
    // As whoever forged it would: the choices as a marker, and the binding's hashes computed to fit.
    const shown = withErasedFields({ ...evidence }, { consentGiven: hashOf(evidence.consentGiven) });
    const forged = { recordId: record.recordId, proofHash, consentGivenSha256: hashOf(evidence.consentGiven), evidenceSha256: hashOf(shown) };
    expect(problems('record', shown, record.recordId, proofHash, forged)).toMatch(/names consentGivenSha256, which is no field of a record that retention may erase/);
    // Nor a binding that names no erased field at all (it would stand for evidence altered anywhere).
    expect(problems('record', { ...evidence, consentGiven: { [purpose]: false } }, record.recordId, proofHash, { recordId: record.recordId, proofHash, evidenceSha256: hashOf({ ...evidence, consentGiven: { [purpose]: false } }) })).toBe('it binds no erased field');
  });

  it('restores the evidence as hashed for whoever holds the clear values, and only for those values', () => {
    const binding = recordBinding(evidence, proofHash)!;
    const shown = withErasedFields({ ...evidence }, { externalId: binding.externalIdSha256!, userAgent: binding.userAgentSha256!, ipAddress: binding.ipAddressSha256! });
    // As docs/retention.md tells her: each clear value back in place of { sha256 }, hashed in RFC 8785 form.
    const restored = JSON.parse(JSON.stringify({ ...shown, externalId: 'customer-4711', userAgent: 'test agent', ipAddress: '192.0.2.1' })) as ConsentEvidence;
    expect(restored).toEqual(evidence);
    expect(proofHashOf({ ...restored, proofVersion: 3 })).toBe(proofHash);
    expect(proofHashOf({ ...restored, ipAddress: '192.0.2.2', proofVersion: 3 })).not.toBe(proofHash);
  });

  it('never binds evidence that does not hash to its proof; binds only the values a record holds', () => {
    expect(() => recordBinding({ ...evidence, ipAddress: '192.0.2.2' }, proofHash)).toThrow(/does not hash/);
    const bare = { ...record, externalId: null, userAgent: null };
    const binding = recordBinding(evidenceOf(bare), proofHashOf(bare))!;
    expect(Object.keys(binding).sort()).toEqual(['evidenceSha256', 'ipAddressSha256', 'proofHash', 'recordId']);
    const none = { ...bare, ipAddress: '' };
    expect(recordBinding(evidenceOf(none), proofHashOf(none))).toBeUndefined();
  });

  it('binds a record of the hash-chain era (format 1) the same way, chain fields and all', () => {
    const chained = { ...record, proofVersion: 1 as const, chainSeq: 7, prevProofHash: 'e'.repeat(64), attribution: undefined, attributionMethod: undefined, attributedBy: undefined };
    const chainedHash = proofHashOf(chained);
    const binding = recordBinding(evidenceOf(chained), chainedHash)!;
    const stored = { ...chained, proofHash: chainedHash, externalId: null, userAgent: null, ipAddress: null, erasedSha256: { externalId: binding.externalIdSha256!, userAgent: binding.userAgentSha256!, ipAddress: binding.ipAddressSha256! } } as unknown as ConsentRecord;
    expect(checkedEvidence(stored, binding)).toMatchObject({ payload: { chainSeq: 7, prevProofHash: 'e'.repeat(64), externalId: { sha256: sha256('customer-4711') } }, matches: true });
  });

  it('checks a record by its proof hash, or once values were erased by the binding alone', () => {
    const stored = { ...record, proofHash } as unknown as ConsentRecord;
    expect(checkedEvidence(stored, undefined)).toMatchObject({ payload: evidence, recomputedHash: proofHash, matches: true });
    const binding = recordBinding(evidence, proofHash)!;
    const erased = { ...stored, externalId: null, userAgent: null, ipAddress: null, erasedSha256: { externalId: binding.externalIdSha256!, userAgent: binding.userAgentSha256!, ipAddress: binding.ipAddressSha256! } };
    expect(checkedEvidence(erased, binding)).toMatchObject({ payload: { externalId: { sha256: binding.externalIdSha256 }, userAgent: { sha256: binding.userAgentSha256 } }, recomputedHash: binding.evidenceSha256, matches: true });
    expect(checkedEvidence(erased, undefined).matches).toBe(false);
    expect(checkedEvidence({ ...erased, consentGiven: { [purpose]: false } }, binding).matches).toBe(false);
    // An erasure logged before user agents and IP addresses were erased binds the external id alone, and still holds for such a record.
    const legacy = recordBinding({ ...evidence, userAgent: null, ipAddress: '' }, proofHashOf({ ...record, userAgent: null, ipAddress: '' }))!;
    expect(Object.keys(legacy).sort()).toEqual(['evidenceSha256', 'externalIdSha256', 'proofHash', 'recordId']);
    // The offline verifiers read such an erasure's `externalIds` as they read `recordBindings`.
    expect(offline.recordBindingsOf({ externalIds: [legacy], recordBindings: [binding] })).toEqual([binding, legacy]);
  });
});

describe("erasing values of a format 4 record's evidence leaves nothing to search", () => {
  const salt = 'q1f0VlWJ0n3s8mJd0KqZ1w';
  const salted = { ...record, proofVersion: 4 as const, salt };
  const saltedEvidence = evidenceOf(salted);
  const saltedHash = proofHashOf(salted);
  const keyed = (value: string) => hashOf({ salt, value });
  const binding = recordBinding(saltedEvidence, saltedHash)!;
  const shown = withErasedFields({ ...saltedEvidence }, { externalId: binding.externalIdSha256!, userAgent: binding.userAgentSha256!, ipAddress: binding.ipAddressSha256!, salt: binding.saltSha256! });

  it('keys each erased value by the record\'s salt, erases the salt too, and binds it like a value', () => {
    expect(saltedEvidence).toMatchObject({ salt, attribution: 'VERIFIED' });
    expect(binding).toEqual({
      recordId: record.recordId,
      proofHash: saltedHash,
      externalIdSha256: keyed('customer-4711'),
      userAgentSha256: keyed('test agent'),
      ipAddressSha256: keyed('192.0.2.1'),
      saltSha256: sha256(salt),
      evidenceSha256: hashOf(shown),
    });
    // Not the plain SHA-256 a format 3 record's erasure shows (which anyone can search by hashing candidates).
    expect(binding.ipAddressSha256).not.toBe(sha256('192.0.2.1'));
    expect(binding.externalIdSha256).not.toBe(sha256('customer-4711'));
    expect(JSON.stringify(shown)).not.toContain(salt);
    expect(problems('record', shown, record.recordId, saltedHash, binding)).toBeUndefined();
  });

  it('leaves an IPv4 address unsearchable: hashing every candidate finds a format 3 record\'s, not a format 4 record\'s, by its marker or its proof hash', () => {
    const plain = recordBinding(evidence, proofHash)!;
    const candidates = Array.from({ length: 256 }, (_, index) => `192.0.2.${index}`);
    const rest = { ...saltedEvidence, externalId: 'customer-4711', userAgent: 'test agent' };
    expect(candidates.find((ip) => sha256(ip) === plain.ipAddressSha256)).toBe('192.0.2.1');
    expect(candidates.find((ip) => proofHashOf({ ...record, ipAddress: ip }) === proofHash)).toBe('192.0.2.1');
    // What the evidence shows once erased, with every value but the salt known, the salt's marker in its place.
    expect(candidates.find((ip) => sha256(ip) === binding.ipAddressSha256 || hashOf({ salt: shown.salt, value: ip }) === binding.ipAddressSha256)).toBeUndefined();
    expect(candidates.find((ip) => hashOf({ ...rest, ipAddress: ip, salt: shown.salt }) === saltedHash)).toBeUndefined();
  });

  it('restores the evidence as hashed for whoever kept the salt with the values', () => {
    const restored = JSON.parse(JSON.stringify({ ...shown, externalId: 'customer-4711', userAgent: 'test agent', ipAddress: '192.0.2.1', salt })) as ConsentEvidence;
    expect(hashOf(restored)).toBe(saltedHash);
    expect(keyed('192.0.2.1')).toBe((shown.ipAddress as unknown as { sha256: string }).sha256);
  });

  it('refuses the same tampering as in older formats, and a salt left in the clear beside erased values', () => {
    expect(problems('record', { ...shown, consentGiven: { [purpose]: false } }, record.recordId, saltedHash, binding)).toMatch(/not the evidence it bound to the proof hash/);
    expect(problems('record', { ...shown, userAgent: shown.ipAddress }, record.recordId, saltedHash, binding)).toMatch(/its userAgent is not the erased value/);
    expect(problems('record', { ...shown, ipAddress: { sha256: sha256('192.0.2.1') } }, record.recordId, saltedHash, binding)).toMatch(/its ipAddress is not the erased value/);
    expect(problems('record', { ...shown, salt: { sha256: sha256('another salt') } }, record.recordId, saltedHash, binding)).toMatch(/its salt is not the erased value/);
    const { saltSha256: _salt, ...withoutSalt } = binding;
    expect(problems('record', shown, record.recordId, saltedHash, withoutSalt)).toMatch(/its salt shows as erased, and the binding does not name it/);
    // Values erased with the salt shown beside them: searchable again, so refused even with a binding computed to fit.
    const clearSalt = { ...shown, salt };
    expect(problems('record', clearSalt, record.recordId, saltedHash, { ...withoutSalt, evidenceSha256: hashOf(clearSalt) })).toMatch(/its salt shows in the clear beside erased values/);
    expect(problems('record', shown, record.recordId, proofHash, binding)).toMatch(/another hash/);
  });

  it('checks a stored format 4 record after erasure by its binding, and writes the erasure of its salt conditionally on the salt read', () => {
    const stored = { ...salted, proofHash: saltedHash } as unknown as ConsentRecord;
    expect(checkedEvidence(stored, undefined)).toMatchObject({ recomputedHash: saltedHash, matches: true, payload: { salt } });
    const erased = { ...stored, externalId: null, userAgent: null, ipAddress: null, salt: null, erasedSha256: { externalId: binding.externalIdSha256!, userAgent: binding.userAgentSha256!, ipAddress: binding.ipAddressSha256!, salt: binding.saltSha256! } };
    expect(checkedEvidence(erased, binding)).toMatchObject({ payload: { salt: { sha256: sha256(salt) }, ipAddress: { sha256: keyed('192.0.2.1') } }, recomputedHash: binding.evidenceSha256, matches: true });
    expect(checkedEvidence({ ...erased, consentGiven: { [purpose]: false } }, binding).matches).toBe(false);
    const update = erasureUpdate(salted, binding, false).item.Update!;
    expect(update.UpdateExpression).toBe('REMOVE #contact, GSI3PK, GSI3SK, #userAgent, #ipAddress, #salt SET xe = :xe, xua = :xua, xip = :xip, xsl = :xsl');
    expect(update.ExpressionAttributeNames).toMatchObject({ '#salt': 'sl' });
    expect(update.ConditionExpression).toContain('attribute_not_exists(xsl) AND #salt = :salt');
    expect(update.ExpressionAttributeValues).toMatchObject({ ':salt': salt, ':xsl': Buffer.from(sha256(salt), 'hex'), ':xip': Buffer.from(keyed('192.0.2.1'), 'hex') });
  });
});

describe("erasing the reason of a withdrawal's evidence keeps it verifiable", () => {
  const hash = withdrawalHashOf(withdrawalItem);
  const binding = withdrawalBinding(withdrawalItem)!;
  const { reason: _reason, principalEmail: _email, ...rest } = withdrawalItem;
  const erased = { ...rest, reasonSha256: sha256('I moved to another city') };

  it('binds the evidence with the reason as its SHA-256 to the hash the log holds', () => {
    expect(binding).toEqual({ withdrawalId: withdrawalItem.withdrawalId, hash, reasonSha256: sha256('I moved to another city'), evidenceSha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const checked = checkedWithdrawal(erased, binding);
    expect(checked).toMatchObject({ hash, matches: true, evidence: { kind: 'withdrawal', reason: { sha256: binding.reasonSha256 } } });
    expect(JSON.stringify(checked.evidence)).not.toContain('another city');
    expect(problems('withdrawal', checked.evidence, withdrawalItem.withdrawalId, hash, binding)).toBeUndefined();
    // Back in place, the reason gives the withdrawal's hash.
    expect(hashOf({ ...checked.evidence, reason: 'I moved to another city' })).toBe(hash);
  });

  it('never stands for a change to the withdrawal: its purposes or records altered, or no binding, and the hash is not the log\'s', () => {
    for (const altered of [{ ...erased, purposeIds: [] }, { ...erased, recordIds: [] }, { ...erased, isFullWithdrawal: false }]) {
      const checked = checkedWithdrawal(altered, binding);
      expect(checked.matches).toBe(false);
      expect(checked.hash).not.toBe(hash);
      expect(problems('withdrawal', checked.evidence, withdrawalItem.withdrawalId, hash, binding)).toMatch(/not the evidence it bound to its hash/);
    }
    expect(checkedWithdrawal(erased, undefined)).toMatchObject({ matches: false });
    expect(checkedWithdrawal(erased, undefined).hash).not.toBe(hash);
    expect(problems('withdrawal', checkedWithdrawal(erased, binding).evidence, withdrawalItem.withdrawalId, hash, { ...binding, purposeIdsSha256: 'f'.repeat(64) })).toMatch(/no field of a withdrawal/);
    // A withdrawal without a reason has nothing to bind; one never erased stands by its own hash.
    expect(withdrawalBinding({ ...withdrawalItem, reason: null })).toBeUndefined();
    expect(checkedWithdrawal(withdrawalItem, undefined)).toMatchObject({ hash, matches: true });
  });

  it('keys the reason of a withdrawal with a salt by it, erases the salt with it, and refuses the same tampering', () => {
    const salt = 'Xb3v9Qm1LkR7yT2wPz0aHg';
    const salted = { ...withdrawalItem, salt };
    const saltedHash = withdrawalHashOf(salted);
    const saltedBinding = withdrawalBinding(salted)!;
    const keyedReason = hashOf({ salt, value: 'I moved to another city' });
    expect(saltedBinding).toEqual({ withdrawalId: withdrawalItem.withdrawalId, hash: saltedHash, reasonSha256: keyedReason, saltSha256: sha256(salt), evidenceSha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(saltedBinding.reasonSha256).not.toBe(sha256('I moved to another city'));
    const { reason: _r, principalEmail: _e, salt: _s, ...kept } = salted;
    const checked = checkedWithdrawal({ ...kept, reasonSha256: keyedReason, saltSha256: sha256(salt) }, saltedBinding);
    expect(checked).toMatchObject({ hash: saltedHash, matches: true, evidence: { reason: { sha256: keyedReason }, salt: { sha256: sha256(salt) } } });
    expect(JSON.stringify(checked.evidence)).not.toContain(salt);
    expect(hashOf({ ...checked.evidence, reason: 'I moved to another city', salt })).toBe(saltedHash);
    expect(problems('withdrawal', checked.evidence, withdrawalItem.withdrawalId, saltedHash, saltedBinding)).toBeUndefined();
    expect(problems('withdrawal', { ...checked.evidence, purposeIds: [] }, withdrawalItem.withdrawalId, saltedHash, saltedBinding)).toMatch(/not the evidence it bound to its hash/);
    expect(problems('withdrawal', { ...checked.evidence, salt }, withdrawalItem.withdrawalId, saltedHash, saltedBinding)).toMatch(/its salt is not the erased value/);
    const update = withdrawalErasureUpdate(salted, saltedBinding).item.Update!;
    expect(update.UpdateExpression).toBe('REMOVE principalEmail, #reason, #salt SET reasonSha256 = :sha256, saltSha256 = :saltSha256');
    expect(update.ConditionExpression).toBe('attribute_exists(PK) AND #reason = :reason AND attribute_not_exists(reasonSha256) AND #salt = :salt AND attribute_not_exists(saltSha256)');
    expect(update.ExpressionAttributeValues).toEqual({ ':reason': 'I moved to another city', ':sha256': keyedReason, ':salt': salt, ':saltSha256': sha256(salt) });
  });

  it('writes the erasure conditionally on the reason read, and removes her email with it', () => {
    const update = withdrawalErasureUpdate(withdrawalItem, binding).item.Update!;
    expect(update.UpdateExpression).toBe('REMOVE principalEmail, #reason SET reasonSha256 = :sha256');
    expect(update.ConditionExpression).toBe('attribute_exists(PK) AND #reason = :reason AND attribute_not_exists(reasonSha256)');
    expect(update.ExpressionAttributeValues).toEqual({ ':reason': 'I moved to another city', ':sha256': binding.reasonSha256 });
    expect(withdrawalErasureUpdate({ ...withdrawalItem, reason: null }, undefined).item.Update).toMatchObject({ UpdateExpression: 'REMOVE principalEmail', ConditionExpression: 'attribute_exists(principalEmail)' });
  });
});

describe("a record's erasure as written", () => {
  const binding = recordBinding(evidence, proofHash)!;

  it('removes each bound value where its format keeps it, keeps its SHA-256, and is conditional on the values read', () => {
    const update = erasureUpdate({ ...record, legacyKey: undefined }, binding, true).item.Update!;
    expect(update.UpdateExpression).toBe('REMOVE #contact, GSI3PK, GSI3SK, #userAgent, #ipAddress SET xe = :xe, xua = :xua, xip = :xip');
    expect(update.ExpressionAttributeNames).toEqual({ '#contact': 'ce', '#userAgent': 'ua', '#ipAddress': 'ip' });
    expect(update.ConditionExpression).toBe(
      'GSI1PK = :principal AND attribute_exists(#contact) AND attribute_not_exists(xe) AND GSI3PK = :external AND attribute_not_exists(xua) AND #userAgent = :userAgent AND attribute_not_exists(xip) AND #ipAddress = :ipAddress',
    );
    expect(update.ExpressionAttributeValues).toMatchObject({ ':external': `EXTERNAL#${record.tenantId}#customer-4711`, ':userAgent': 'test agent', ':ipAddress': '192.0.2.1', ':xe': Buffer.from(binding.externalIdSha256!, 'hex') });
    // Format 1 keeps each value whole under its own name.
    const whole = erasureUpdate({ ...record, proofVersion: 1, legacyKey: true }, binding, false).item.Update!;
    expect(whole.ExpressionAttributeNames).toEqual({ '#contact': 'ce', '#externalId': 'externalId', '#userAgent': 'userAgent', '#ipAddress': 'ipAddress' });
    expect(whole.ConditionExpression).toContain('#externalId = :externalId');
    expect(whole.ConditionExpression).not.toContain('attribute_exists(#contact)');
    expect(whole.Key).toEqual({ PK: `TENANT#${record.tenantId}`, SK: `RECORD#${record.recordId}` });
    // Without a binding, only the sealed contact goes: the one read (of two erasures at once, one logs it).
    expect(erasureUpdate(record, undefined, true).item.Update).toMatchObject({ UpdateExpression: 'REMOVE #contact', ConditionExpression: 'GSI1PK = :principal AND attribute_exists(#contact)' });
  });
});
