import { createHmac } from 'node:crypto';
import { clock } from '../clock';
import { safeEqual } from '../crypto/hash';
import { decryptSecret } from '../crypto/secret-box';

/**
 * A tenant's server vouches for a value (a principal's identifier hash, a guardian's hash) by
 * signing it with one of its secret keys, as issued, together with the time it signed: the
 * lower-case hex HMAC-SHA256 of the text `<value>.<unixSeconds>`. The service holds each live
 * key's verifier (the HMAC key a key as issued amounts to, sealed), never the key.
 *
 * The time bounds the signature: it is accepted only within signatureWindowSeconds of the
 * service's clock, either way (the tenant's clock may run ahead). A signature is a bearer
 * credential for whoever it names while it is accepted: one seen in a page or its logs could
 * otherwise be replayed from anywhere, forever. One check for every such signature:
 * identifierSignature with identifierSignedAt (attribution.ts) and the guardian attestation
 * (children/attestation.ts).
 */
export const signatureWindowSeconds = 15 * 60;

/** What is signed: the value and the time, so a signature is good only around that time. */
export const timedSignatureText = (value: string, unixSeconds: number): string => `${value}.${unixSeconds}`;

/**
 * The secret key whose verifier makes `signature` of `text`: every live key is tried and compared
 * in constant time, so timing tells nothing of which matched or how close a guess came. A revoked
 * key has no verifier any more.
 */
const signingKeyOf = (text: string, signature: string, verifiers: ReadonlyMap<string, string>): string | undefined => {
  let match: string | undefined;
  for (const [keyId, sealed] of verifiers) {
    const expected = createHmac('sha256', Buffer.from(decryptSecret(sealed), 'base64')).update(text, 'utf8').digest('hex');
    if (safeEqual(expected, signature) && match === undefined) match = keyId;
  }
  return match;
};

export type TimedSignatureCheck =
  | { valid: true; keyId: string }
  /** OUT_OF_WINDOW: signed more than the window from the service's clock (`nowSeconds`); NO_KEY: no live secret key makes it. */
  | { valid: false; reason: 'OUT_OF_WINDOW' | 'NO_KEY'; nowSeconds: number };

/** Whether `signature` is a live secret key's HMAC of `<value>.<signedAt>`, made within the window of `now` (the service's clock). */
export const verifyTimedSignature = (value: string, signedAt: number, signature: string, verifiers: ReadonlyMap<string, string>, now: Date = clock.now()): TimedSignatureCheck => {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  if (!Number.isSafeInteger(signedAt) || Math.abs(nowSeconds - signedAt) > signatureWindowSeconds) return { valid: false, reason: 'OUT_OF_WINDOW', nowSeconds };
  const keyId = signingKeyOf(timedSignatureText(value, signedAt), signature, verifiers);
  return keyId === undefined ? { valid: false, reason: 'NO_KEY', nowSeconds } : { valid: true, keyId };
};
