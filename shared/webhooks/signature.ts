import { createHmac, timingSafeEqual } from 'node:crypto';

/** `sha256=` + lowercase hex HMAC-SHA256 of the raw body bytes, keyed with the webhook secret. */
export const signWebhookBody = (rawBody: string | Buffer, secret: string): string =>
  `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;

/**
 * For receivers: checks X-Service-Signature against the raw request body (the bytes as received,
 * before any JSON parsing), in constant time.
 */
export const verifyWebhookSignature = (rawBody: string | Buffer, signatureHeader: string | undefined | null, secret: string): boolean => {
  if (!signatureHeader) return false;
  const expected = Buffer.from(signWebhookBody(rawBody, secret));
  const given = Buffer.from(signatureHeader.trim());
  return expected.length === given.length && timingSafeEqual(expected, given);
};
