import http from 'node:http';
import https from 'node:https';
import { createLocalJWKSet, decodeJwt, errors, jwtVerify, type JSONWebKeySet } from 'jose';
import { engineConfig } from '../config';
import { ValidationError } from '../errors';
import { instanceCache } from '../instance-cache';
import { bareHost, guardedLookup, literalRefused, type LocalException } from '../net/guarded-lookup';
import type { ChildrenPolicy } from './policy';

const timeoutMs = 5_000;
const maxJwksBytes = 64 * 1024;

const refuse = (reason: string): never => {
  throw new ValidationError({ token: reason }, 'The virtual token does not verify');
};

/** Only the configured issuer's own JWKS host and port, and only where config allows a local exception at all. */
const exceptionFor = (url: URL): LocalException => {
  const allowed = engineConfig.jwksLocalException;
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return (host) => allowed !== undefined && allowed.host === host && allowed.port === port;
};

/**
 * GETs a JWKS through the one address policy, checked where the socket connects (DNS rebinding),
 * with no redirects, a 5-second budget and a 64 KB cap. http only for the local exception.
 */
export const fetchJwks = (jwksUrl: string): Promise<JSONWebKeySet> =>
  new Promise((resolve, reject) => {
    const url = new URL(jwksUrl);
    const exception = exceptionFor(url);
    const host = bareHost(url.hostname);
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && exception(host))) return reject(new Error('a JWKS is fetched over https'));
    if (literalRefused(host, exception)) return reject(new Error(`${host} is a forbidden address`));
    const request = (url.protocol === 'https:' ? https : http).get(url, { lookup: guardedLookup(exception), agent: false, timeout: timeoutMs, headers: { accept: 'application/json' } }, (response) => {
      if (response.statusCode !== 200) {
        response.resume();
        return reject(new Error(`the JWKS answered ${response.statusCode}`));
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxJwksBytes) request.destroy(new Error('the JWKS is larger than 64 KB'));
        else chunks.push(chunk);
      });
      response.on('end', () => {
        try {
          const jwks = JSON.parse(Buffer.concat(chunks).toString('utf8')) as JSONWebKeySet;
          if (!Array.isArray(jwks.keys)) throw new Error('not a JWKS: no keys');
          resolve(jwks);
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      });
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error(`the JWKS did not answer within ${timeoutMs} ms`)));
    request.on('error', reject);
  });

/** JWKS by URL, for 5 minutes per warm instance: an issuer's rotated key is picked up within that. */
const jwksCache = instanceCache<JSONWebKeySet>(100, () => 5 * 60_000);

/**
 * VIRTUAL_TOKEN (rule 10(1)(b)(ii)): a compact JWS from an issuer the tenant configured (an
 * authorised entity, or a DigiLocker service provider's partner), verified with jose against the
 * issuer's JWKS: `iss` is the issuer, `aud` the tenant id, `exp` in the future, and the issuer's
 * age claim true. Returns the issuer; a 400 on `token` naming what failed otherwise.
 */
export const verifyVirtualToken = async (token: string, tenantId: string, policy: Pick<ChildrenPolicy, 'tokenIssuers'>, now: Date): Promise<{ issuer: string }> => {
  let claimedIssuer: string | undefined;
  try {
    claimedIssuer = decodeJwt(token).iss;
  } catch {
    refuse('not a compact JWS');
  }
  const issuer = policy.tokenIssuers.find((candidate) => candidate.issuer === claimedIssuer);
  if (!issuer) return refuse(`its issuer (${claimedIssuer ?? 'none'}) is not one this organisation accepts`);
  let jwks: JSONWebKeySet;
  try {
    jwks = await jwksCache.remember(issuer.jwksUrl, () => fetchJwks(issuer.jwksUrl));
  } catch (error) {
    return refuse(`the issuer's keys could not be fetched: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    const { payload } = await jwtVerify(token, createLocalJWKSet(jwks), { issuer: issuer.issuer, audience: tenantId, requiredClaims: ['exp'], currentDate: now });
    if (payload[issuer.ageClaim] !== true) refuse(`the claim ${issuer.ageClaim} (an adult) is not true`);
  } catch (error) {
    if (error instanceof ValidationError) throw error;
    if (error instanceof errors.JWTExpired) refuse('expired');
    if (error instanceof errors.JWTClaimValidationFailed) refuse(`claim ${error.claim} does not verify: ${error.message}`);
    refuse(`the signature does not verify with the issuer's keys (${error instanceof Error ? error.message : 'unknown'})`);
  }
  return { issuer: issuer.issuer };
};
