import { createHmac } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { signAccessToken, verifyAccessToken } from '../shared/auth/jwt';
import { offsetClock, resetClock, setClock } from '../shared/clock';
import { config } from '../shared/config';
import { TokenInvalidError } from '../shared/errors';

const claims = { tenantId: 'tenant-1', userId: 'user-1', role: 'DPO' as const };
const [key] = config.jwtSigningKeys;
const secret = new TextEncoder().encode(key!.secret);
const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const now = () => Math.floor(Date.now() / 1000);
const goodPayload = () => ({ tid: 'tenant-1', role: 'DPO', sub: 'user-1', iss: config.jwtIssuer, aud: config.jwtAudience, iat: now(), exp: now() + 600 });

/** A token signed with the service's key over exactly these header and payload values. */
const signed = (header: unknown, payload: unknown, withSecret = key!.secret) => {
  const input = `${part(header)}.${part(payload)}`;
  return `${input}.${createHmac('sha256', withSecret).update(input).digest('base64url')}`;
};

const refusal = async (token: string) => {
  const error = await verifyAccessToken(token).then(() => undefined, (caught: unknown) => caught);
  expect(error, token).toBeInstanceOf(TokenInvalidError);
  return (error as TokenInvalidError).message;
};

afterEach(() => resetClock());

describe('access tokens (HS256 over node:crypto)', () => {
  it('verifies what it signs, and interoperates with an independent JOSE library both ways', async () => {
    const token = await signAccessToken(claims);
    expect(await verifyAccessToken(token)).toEqual(claims);
    const { payload, protectedHeader } = await jwtVerify(token, secret, { algorithms: ['HS256'], issuer: config.jwtIssuer, audience: config.jwtAudience });
    expect(protectedHeader).toEqual({ alg: 'HS256', kid: key!.kid, typ: 'JWT' });
    expect(payload).toMatchObject({ tid: 'tenant-1', role: 'DPO', sub: 'user-1' });
    expect(payload.exp! - payload.iat!).toBe(config.accessTokenTtlSeconds);
    const fromJose = await new SignJWT({ tid: 'tenant-1', role: 'DPO' })
      .setProtectedHeader({ alg: 'HS256', kid: key!.kid })
      .setSubject('user-1')
      .setIssuer(config.jwtIssuer)
      .setAudience([config.jwtAudience, 'another-audience'])
      .setExpirationTime('5m')
      .sign(secret);
    expect(await verifyAccessToken(fromJose)).toEqual(claims);
  });

  it('refuses an expired token (exp is the first second it is invalid), a token not yet valid, and one without exp', async () => {
    const token = await signAccessToken(claims);
    setClock(offsetClock((config.accessTokenTtlSeconds - 1) * 1000));
    expect(await verifyAccessToken(token)).toEqual(claims);
    setClock(offsetClock((config.accessTokenTtlSeconds + 1) * 1000));
    expect(await refusal(token)).toMatch(/expired/);
    resetClock();
    expect(await refusal(signed({ alg: 'HS256', kid: key!.kid }, { ...goodPayload(), nbf: now() + 60 }))).toBe('Access token is invalid');
    const { exp: _exp, ...withoutExp } = goodPayload();
    await refusal(signed({ alg: 'HS256', kid: key!.kid }, withoutExp));
    await refusal(signed({ alg: 'HS256', kid: key!.kid }, { ...goodPayload(), exp: String(now() + 600) }));
    await refusal(signed({ alg: 'HS256', kid: key!.kid }, { ...goodPayload(), iat: 'yesterday' }));
  });

  it('refuses a tampered payload or signature, another key, another algorithm, alg none and crit', async () => {
    const [header, payload, signature] = (await signAccessToken(claims)).split('.') as [string, string, string];
    const elevated = part({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), role: 'SUPER_ADMIN' });
    await refusal(`${header}.${elevated}.${signature}`);
    await refusal(`${header}.${payload}.${'A'.repeat(43)}`);
    await refusal(`${header}.${payload}.${signature.slice(0, -2)}`);
    expect(await refusal(signed({ alg: 'HS256', kid: 'attacker' }, goodPayload(), 'a-secret-the-service-never-issued-xxxxxxxx'))).toMatch(/unknown key/);
    await refusal(signed({ alg: 'HS256', kid: key!.kid }, goodPayload(), 'a-secret-the-service-never-issued-xxxxxxxx'));
    for (const alg of ['none', 'HS512', 'RS256', 'hs256']) await refusal(signed({ alg, kid: key!.kid }, goodPayload()));
    await refusal(`${part({ alg: 'none', kid: key!.kid })}.${part(goodPayload())}.`);
    await refusal(signed({ alg: 'HS256', kid: key!.kid, crit: ['exp'] }, goodPayload()));
    await refusal(signed({ alg: 'HS256' }, goodPayload()));
  });

  it('refuses another issuer or audience, and claims that are missing or of the wrong type', async () => {
    const header = { alg: 'HS256', kid: key!.kid };
    await refusal(signed(header, { ...goodPayload(), iss: 'someone-else' }));
    await refusal(signed(header, { ...goodPayload(), aud: 'another-audience' }));
    await refusal(signed(header, { ...goodPayload(), aud: ['another-audience'] }));
    expect(await refusal(signed(header, { ...goodPayload(), role: 'OWNER' }))).toMatch(/tenant, user or role/);
    await refusal(signed(header, { ...goodPayload(), sub: 42 }));
    const { tid: _tid, ...withoutTenant } = goodPayload();
    await refusal(signed(header, withoutTenant));
  });

  it('refuses what is not a compact JWS: wrong part count, characters outside base64url, a JSON value that is not an object', async () => {
    const token = await signAccessToken(claims);
    for (const malformed of ['', 'abc', token.split('.').slice(0, 2).join('.'), `${token}.extra`, `${token.slice(0, 10)}+${token.slice(11)}`, ` ${token}`]) {
      await refusal(malformed);
    }
    const input = `${part({ alg: 'HS256', kid: key!.kid })}.${Buffer.from('[1,2]').toString('base64url')}`;
    await refusal(`${input}.${createHmac('sha256', key!.secret).update(input).digest('base64url')}`);
  });
});
