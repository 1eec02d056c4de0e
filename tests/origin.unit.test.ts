import { describe, expect, it } from 'vitest';
import { formatApiKey, parseApiKey } from '../shared/api-keys/api-key';
import { checkOrigin } from '../shared/auth/origin';

const codeOf = (fn: () => void): string | undefined => {
  try {
    fn();
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
};

describe('checkOrigin', () => {
  it('allows everything while no domain is registered', () => {
    expect(codeOf(() => checkOrigin([], {}))).toBeUndefined();
  });
  it('matches the exact hostname, case-insensitively, ignoring scheme, port and path', () => {
    expect(codeOf(() => checkOrigin(['shop.example.com'], { origin: 'https://SHOP.example.com:8443' }))).toBeUndefined();
    expect(codeOf(() => checkOrigin(['shop.example.com'], { origin: 'https://www.shop.example.com' }))).toBe('ORIGIN_NOT_ALLOWED');
  });
  it('treats an unparsable or null Origin as not allowed', () => {
    expect(codeOf(() => checkOrigin(['shop.example.com'], { origin: 'null' }))).toBe('ORIGIN_NOT_ALLOWED');
  });
  it('prefers Origin over Referer', () => {
    expect(codeOf(() => checkOrigin(['a.example'], { origin: 'https://b.example', referer: 'https://a.example/' }))).toBe(
      'ORIGIN_NOT_ALLOWED',
    );
  });
});

describe('API key format', () => {
  it('round-trips the key id and rejects other shapes', () => {
    const keyId = '0f8fad5b-d9cb-469f-a165-70867728950e';
    const key = formatApiKey(keyId, 'A'.repeat(43));
    expect(parseApiKey(key)).toEqual({ keyId, secret: 'A'.repeat(43), kind: 'publishable' });
    expect(parseApiKey(formatApiKey(keyId, 'A'.repeat(43), 'secret'))).toEqual({ keyId, secret: 'A'.repeat(43), kind: 'secret' });
    expect(parseApiKey(key.replace('cms_', 'cms_pk_'))).toBeUndefined();
    expect(parseApiKey(`${key}x`)).toBeUndefined();
    expect(parseApiKey('cms_123_abc')).toBeUndefined();
  });
});
