import { createHmac, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatApiKey, identityVerifierOf, maskApiKey, parseApiKey } from '../shared/api-keys/api-key';
import { verifyGuardianAttestation } from '../shared/children/attestation';
import { attributePrincipal } from '../shared/consent/attribution';
import { canonicalEvidence, proofHashOf } from '../shared/consent/proof';
import type { ConsentRecord } from '../shared/consent/record';
import { recordItem, recordOf } from '../shared/consent/record-item';
import { defaultSettings } from '../shared/consent/settings';
import { verifyTimedSignature } from '../shared/consent/timed-signature';
import { fixedClock, resetClock, setClock } from '../shared/clock';
import { encryptSecret } from '../shared/crypto/secret-box';
import { sha256Hex } from '../shared/crypto/hash';

const keyId = '0190a8f4-0000-7000-8000-00000000000a';
const secretKey = formatApiKey(keyId, randomBytes(32).toString('base64url'), 'secret');
const hash = sha256Hex('asha@example.in');
const sign = (key: string, text: string) => createHmac('sha256', key).update(text).digest('hex');
const verifiers = new Map([[keyId, encryptSecret(identityVerifierOf(secretKey).toString('base64'))]]);
const publishable = { by: 'apiKey', keyId: 'pk-1', keyKind: 'publishable', ip: '203.0.113.7' } as const;
const signedAt = Math.floor(Date.now() / 1000);
// The window's edges (±900 s accepted, ±901 s refused) are checked against the service's clock:
// pinned at signedAt, so a slow, loaded worker crossing a second between lines cannot move them.
beforeAll(() => setClock(fixedClock(new Date(signedAt * 1000))));
afterAll(() => resetClock());
/** What the tenant's server signs: the hash and the time (attribution.ts). */
const signed = (key: string, identifierHash: string, at = signedAt) => ({ identifierHash, identifierSignature: sign(key, `${identifierHash}.${at}`), identifierSignedAt: at });

describe('API key kinds', () => {
  it('gives secret keys a prefix of their own, parsed back with the kind', () => {
    expect(secretKey).toMatch(/^cms_sk_[0-9a-f]{32}_[\w-]{43}$/);
    expect(parseApiKey(secretKey)).toMatchObject({ keyId, kind: 'secret' });
    const old = formatApiKey(keyId, 'x'.repeat(43));
    expect(old).toMatch(/^cms_[0-9a-f]{32}_/);
    expect(parseApiKey(old)).toMatchObject({ keyId, kind: 'publishable' });
    expect(maskApiKey(keyId, 'abcd', 'secret')).toMatch(/^cms_sk_.*\*abcd$/);
  });

  it("checks a signature made with the key as issued from the stored verifier alone (RFC 2104: a key longer than the block is hashed first)", () => {
    expect(Buffer.byteLength(secretKey)).toBeGreaterThan(64);
    const viaVerifier = createHmac('sha256', identityVerifierOf(secretKey)).update(hash).digest('hex');
    expect(viaVerifier).toBe(sign(secretKey, hash));
    // The verifier is not the key, nor what authentication compares.
    expect(identityVerifierOf(secretKey).toString('hex')).not.toBe(sha256Hex(parseApiKey(secretKey)!.secret));
  });
});

describe('attribution', () => {
  it('is VERIFIED for a valid signature (naming the signing key), CLAIMED unsigned, IP without identifier', () => {
    expect(attributePrincipal({ ...publishable, ...signed(secretKey, hash) }, defaultSettings, verifiers)).toEqual({
      dataPrincipalHash: hash,
      attribution: 'VERIFIED',
      attributionMethod: 'SIGNED_HASH',
      attributedBy: `key:${keyId}`,
      identifierSignedAt: signedAt,
    });
    expect(attributePrincipal({ ...publishable, identifierHash: hash }, defaultSettings, verifiers)).toMatchObject({ attribution: 'CLAIMED', attributionMethod: 'UNSIGNED_HASH', attributedBy: 'key:pk-1' });
    expect(attributePrincipal(publishable, defaultSettings, verifiers)).toMatchObject({ dataPrincipalHash: sha256Hex('ip:203.0.113.7'), attribution: 'IP' });
    expect(attributePrincipal({ by: 'staff', userId: 'u1', identifier: 'Asha@Example.in' }, defaultSettings, verifiers)).toEqual({
      dataPrincipalHash: hash,
      attribution: 'VERIFIED',
      attributionMethod: 'DASHBOARD',
      attributedBy: 'user:u1',
    });
    expect(attributePrincipal({ by: 'apiKey', keyId: 'sk-1', keyKind: 'secret', ip: '203.0.113.7', identifier: 'asha@example.in' }, defaultSettings, verifiers)).toMatchObject({
      dataPrincipalHash: hash,
      attribution: 'VERIFIED',
      attributionMethod: 'SECRET_KEY',
    });
  });

  it('refuses, naming the field: a raw identifier with a publishable key, a wrong or orphan signature, a secret key naming nobody, and anything unverified when required', () => {
    const fieldsOf = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return Object.keys((error as { fields: Record<string, string> }).fields).sort();
      }
      return [];
    };
    const strict = { ...defaultSettings, requireVerifiedIdentity: true };
    expect(fieldsOf(() => attributePrincipal({ ...publishable, identifier: 'asha@example.in' }, defaultSettings, verifiers))).toEqual(['identifier']);
    expect(fieldsOf(() => attributePrincipal({ ...publishable, ...signed(secretKey, sha256Hex('other')), identifierHash: hash }, defaultSettings, verifiers))).toEqual(['identifierSignature']);
    expect(fieldsOf(() => attributePrincipal({ ...publishable, ...signed(secretKey, hash) }, defaultSettings, new Map()))).toEqual(['identifierSignature']);
    expect(fieldsOf(() => attributePrincipal({ ...publishable, identifierSignature: sign(secretKey, hash) }, defaultSettings, verifiers))).toEqual(['identifierSignature']);
    // Unbound to a time (the hash alone), past the 15-minute window either way, or a time without a signature.
    expect(fieldsOf(() => attributePrincipal({ ...publishable, identifierHash: hash, identifierSignature: sign(secretKey, hash) }, defaultSettings, verifiers))).toEqual(['identifierSignature']);
    expect(fieldsOf(() => attributePrincipal({ ...publishable, ...signed(secretKey, hash, signedAt - 901) }, defaultSettings, verifiers))).toEqual(['identifierSignature']);
    expect(fieldsOf(() => attributePrincipal({ ...publishable, ...signed(secretKey, hash, signedAt + 901) }, defaultSettings, verifiers))).toEqual(['identifierSignature']);
    expect(fieldsOf(() => attributePrincipal({ ...publishable, identifierHash: hash, identifierSignedAt: signedAt }, defaultSettings, verifiers))).toEqual(['identifierSignedAt']);
    expect(fieldsOf(() => attributePrincipal({ by: 'apiKey', keyId: 'sk-1', keyKind: 'secret', ip: '203.0.113.7' }, defaultSettings, verifiers))).toEqual(['identifier']);
    expect(fieldsOf(() => attributePrincipal({ ...publishable, identifierHash: hash }, strict, verifiers))).toEqual(['identifierSignature']);
    expect(fieldsOf(() => attributePrincipal(publishable, strict, verifiers))).toEqual(['identifierHash', 'identifierSignature']);
    expect(fieldsOf(() => attributePrincipal({ ...publishable, ...signed(secretKey, hash) }, strict, verifiers))).toEqual([]);
  });
});

describe('a timed signature (HMAC of `<value>.<unixSeconds>`), one check for identifierSignature and the guardian attestation', () => {
  const now = new Date(signedAt * 1000);
  const guardian = 'parent@example.in';
  const guardianHash = sha256Hex(guardian);
  const attestation = (at: number, key = secretKey) => ({ guardianIdentifierHash: guardianHash, issuedAt: at, signature: sign(key, `${guardianHash}.${at}`) });
  const attested = (at: number, key = secretKey) => {
    try {
      return verifyGuardianAttestation(attestation(at, key), guardian, verifiers, now);
    } catch (error) {
      return (error as { fields: Record<string, string> }).fields;
    }
  };

  it('holds within 15 minutes of the service clock, either way, naming the key; refuses past it or with another key', () => {
    for (const at of [signedAt - 900, signedAt, signedAt + 900]) {
      expect(verifyTimedSignature(hash, at, sign(secretKey, `${hash}.${at}`), verifiers, now), String(at - signedAt)).toEqual({ valid: true, keyId });
    }
    for (const at of [signedAt - 901, signedAt + 901]) {
      expect(verifyTimedSignature(hash, at, sign(secretKey, `${hash}.${at}`), verifiers, now)).toEqual({ valid: false, reason: 'OUT_OF_WINDOW', nowSeconds: signedAt });
    }
    expect(verifyTimedSignature(hash, signedAt, sign(formatApiKey(keyId, randomBytes(32).toString('base64url'), 'secret'), `${hash}.${signedAt}`), verifiers, now)).toMatchObject({ valid: false, reason: 'NO_KEY' });
    expect(verifyTimedSignature(hash, signedAt + 1, sign(secretKey, `${hash}.${signedAt}`), verifiers, now)).toMatchObject({ valid: false, reason: 'NO_KEY' });
  });

  it("decides a guardian attestation as it decides an identifierSignature: the same window, either way", () => {
    for (const offset of [-900, 0, 600, 900]) expect(attested(signedAt + offset), String(offset)).toEqual({ keyId });
    for (const offset of [-901, 901]) {
      expect(attested(signedAt + offset), String(offset)).toEqual({ guardianAttestation: expect.stringContaining('more than 15 minutes from the service\'s clock') });
      expect(() => attributePrincipal({ ...publishable, ...signed(secretKey, hash, signedAt + offset) }, defaultSettings, verifiers)).toThrow();
    }
    expect(attested(signedAt, formatApiKey(keyId, randomBytes(32).toString('base64url'), 'secret'))).toEqual({ guardianAttestation: expect.stringContaining('does not verify') });
  });
});

/** DynamoDB's item size: attribute names plus values (strings and binary by length, numbers about a byte per two digits). */
const sizeOf = (value: unknown): number => {
  if (value instanceof Uint8Array) return value.length;
  if (typeof value === 'string') return Buffer.byteLength(value);
  if (typeof value === 'number') return Math.ceil(String(value).length / 2) + 1;
  if (typeof value === 'boolean' || value === null) return 1;
  if (Array.isArray(value)) return 3 + value.reduce((sum: number, inner) => sum + 1 + sizeOf(inner), 0);
  return 3 + Object.entries(value as Record<string, unknown>).reduce((sum, [name, inner]) => sum + Buffer.byteLength(name) + 1 + sizeOf(inner), 0);
};

describe('the record item, proof formats 2 to 4', () => {
  const evidence = {
    tenantId: '0190a8f4-0000-7000-8000-000000000001',
    recordId: '0190a8f4-0000-7000-8000-000000000002',
    noticeId: '0190a8f4-0000-7000-8000-000000000003',
    noticeVersionNumber: 4,
    noticeTextHash: sha256Hex('text'),
    languageShown: 'HI',
    positionShown: 'bottom-right',
    dataPrincipalHash: hash,
    externalId: 'customer-000042',
    consentGiven: { '0190a8f4-0000-7000-8000-000000000004': true, '0190a8f4-0000-7000-8000-000000000005': false, '0190a8f4-0000-7000-8000-000000000006': true },
    createdAt: '2026-11-25T10:00:00.000Z',
    ipAddress: '2001:db8:1234:5678:9abc:def0:1234:5678',
    userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  };
  const rest = {
    noticeTitle: 'Privacy notice for our customers',
    lineageId: '0190a8f4-0000-7000-8000-000000000007',
    channel: 'SDK' as const,
    decision: 'PARTIAL',
    requiredPurposesDeclined: [],
    withdrawnPurposes: [],
    withdrawnAt: null,
    isWithdrawn: false,
    isPartiallyWithdrawn: false,
    withdrawalVersion: 0,
  };

  it('keeps a format 4 widget record, attribution, salt and withdrawal key included, under 1 KB, and reads it back to the same proof hash', () => {
    const attributed = { ...evidence, attribution: 'VERIFIED' as const, attributionMethod: 'SIGNED_HASH' as const, attributedBy: `key:${keyId}`, identifierSignedAt: 1_795_600_000 };
    const salt = randomBytes(16).toString('base64url');
    const record: ConsentRecord = { ...attributed, salt, ...rest, proofVersion: 4, proofHash: proofHashOf({ ...attributed, salt, proofVersion: 4 }), withdrawalKeyHash: sha256Hex('key') };
    const item = recordItem(record);
    expect(sizeOf(item)).toBeLessThan(1024);
    const read = recordOf(item);
    expect(read).toMatchObject({ proofVersion: 4, salt, attribution: 'VERIFIED', attributionMethod: 'SIGNED_HASH', attributedBy: `key:${keyId}`, identifierSignedAt: 1_795_600_000, withdrawalKeyHash: sha256Hex('key') });
    expect(proofHashOf(read)).toBe(record.proofHash);
    expect(canonicalEvidence(read)).toContain('"attribution":"VERIFIED"');
    expect(canonicalEvidence(read)).toContain('"identifierSignedAt":1795600000');
    expect(canonicalEvidence(read)).toContain(`"salt":"${salt}"`);
    // A format 3 record (attribution, no salt) reads and hashes as it was written.
    const three: ConsentRecord = { ...attributed, ...rest, proofVersion: 3, proofHash: proofHashOf({ ...attributed, proofVersion: 3 }) };
    const readThree = recordOf(recordItem(three));
    expect(readThree).toMatchObject({ proofVersion: 3, attribution: 'VERIFIED' });
    expect(proofHashOf(readThree)).toBe(three.proofHash);
    expect(canonicalEvidence(readThree)).not.toContain('salt');
    // A format 3 record signed before signatures carried a time hashes as it always did.
    const { identifierSignedAt: _at, ...untimed } = attributed;
    expect(canonicalEvidence({ ...untimed, proofVersion: 3 })).not.toContain('identifierSignedAt');
    // The withdrawal key is not evidence.
    expect(canonicalEvidence(read)).not.toContain(sha256Hex('key'));
  });

  it('reads a format 2 record as it was written: no attribution in its evidence, same hash', () => {
    const record: ConsentRecord = { ...evidence, ...rest, proofVersion: 2, proofHash: proofHashOf({ ...evidence, proofVersion: 2 }) };
    const read = recordOf({ ...recordItem(record) });
    expect(read.proofVersion).toBe(2);
    expect(read.attribution).toBeUndefined();
    expect(proofHashOf(read)).toBe(record.proofHash);
    expect(canonicalEvidence(read)).not.toContain('attribution');
  });
});
