import { nowIso } from '../clock';
import { limitConfig } from '../config';
import { forgetRecordingItems } from '../consent/recording-items';
import { instanceCache } from '../instance-cache';
import { safeEqual, sha256Hex } from '../crypto/hash';
import { AppError, ConflictError, NotFoundError, UnauthorizedError } from '../errors';
import { newId } from '../ids';
import { encryptSecret } from '../crypto/secret-box';
import { formatApiKey, identityVerifierOf, maskApiKey, newApiKeySecret, parseApiKey, type ApiKeyKind } from './api-key';
import {
  deleteDomain,
  insertApiKey,
  insertSecretApiKey,
  revokeSecretApiKey,
  insertDomain,
  listTenantApiKeys,
  loadApiKeyWithDomains,
  markApiKeyRevoked,
  type ApiKeyItem,
} from './store';

const kindOf = (key: Pick<ApiKeyItem, 'kind'>): ApiKeyKind => key.kind ?? 'publishable';

/**
 * Keys as this warm instance last read them, for at most INSTANCE_CACHE_SECONDS (10): a revoked key,
 * or a domain removed from the allowlist, takes effect within that bound (at once in the instance
 * that made the change: docs/security.md states what holds where). Only keys that exist are
 * kept, at most 1,000. A remembered key only ever lets a request through: a request it would
 * refuse (a wrong secret, a revoked key, an origin outside its domains) is decided again on the
 * key read now, so a domain added to the allowlist or removed from it never refuses anyone late.
 */
const knownKeys = instanceCache<Awaited<ReturnType<typeof loadApiKeyWithDomains>>>(1000, () => limitConfig.instanceCacheSeconds * 1000);

/**
 * A new key, shown only in this answer. A secret key is written with its sealed identity
 * verifier (api-key.ts says why the verifier can check signatures without being the key).
 */
export const createApiKey = async (tenantId: string, kind: ApiKeyKind = 'publishable') => {
  const keyId = newId();
  const { secret, secretHash } = newApiKeySecret();
  const createdAt = nowIso();
  const apiKey = formatApiKey(keyId, secret, kind);
  const item: ApiKeyItem = { keyId, tenantId, kind, secretHash, last4: secret.slice(-4), createdAt };
  if (kind === 'secret') await insertSecretApiKey(item, encryptSecret(identityVerifierOf(apiKey).toString('base64')));
  else await insertApiKey(item);
  return { keyId, kind, apiKey, createdAt };
};

const masked = (key: ApiKeyItem) => ({
  keyId: key.keyId,
  kind: kindOf(key),
  maskedKey: maskApiKey(key.keyId, key.last4, kindOf(key)),
  createdAt: key.createdAt,
  revokedAt: key.revokedAt ?? null,
});

export const listApiKeys = async (tenantId: string) => (await listTenantApiKeys(tenantId)).map(masked);

/**
 * Revoked in the table at once; this instance also forgets what it remembered of the key (and,
 * for a secret key, the tenant's identity verifiers), so here the next request is refused.
 * Instances that remembered it refuse it within INSTANCE_CACHE_SECONDS (docs/security.md).
 */
export const revokeApiKey = async (tenantId: string, keyId: string) => {
  const { key } = await ownedKey(tenantId, keyId);
  const at = nowIso();
  const secret = kindOf(key!) === 'secret';
  const revoked = secret ? await revokeSecretApiKey(tenantId, keyId, at) : await markApiKeyRevoked(tenantId, keyId, at);
  knownKeys.forget(keyId);
  if (secret) forgetRecordingItems(tenantId);
  return masked(revoked);
};

/** Another tenant's key is indistinguishable from a missing one. */
const ownedKey = async (tenantId: string, keyId: string) => {
  const loaded = await loadApiKeyWithDomains(keyId);
  if (!loaded.key || loaded.key.tenantId !== tenantId) throw new NotFoundError('API key');
  return loaded;
};

const domainView = (domain: { domainId: string; domain: string; createdAt: string }) => ({
  id: domain.domainId,
  domain: domain.domain,
  createdAt: domain.createdAt,
});

export const listDomains = async (tenantId: string, keyId: string) =>
  (await ownedKey(tenantId, keyId)).domains.map(domainView);

export const addDomain = async (tenantId: string, keyId: string, domain: string) => {
  const { key } = await ownedKey(tenantId, keyId);
  if (kindOf(key!) === 'secret') throw new ConflictError('A secret key is refused from every browser, so it has no allowed domains: list domains on a publishable key');
  const item = { domainId: newId(), domain, createdAt: nowIso() };
  await insertDomain(keyId, tenantId, item);
  return domainView(item);
};

export const removeDomain = async (tenantId: string, keyId: string, domainId: string) => {
  const { domains } = await ownedKey(tenantId, keyId);
  const match = domains.find((domain) => domain.domainId === domainId);
  if (!match) throw new NotFoundError('Domain');
  await deleteDomain(keyId, match.domain);
  knownKeys.forget(keyId);
  return domainView(match);
};

export interface AuthenticatedKey {
  tenantId: string;
  keyId: string;
  kind: ApiKeyKind;
  allowedDomains: string[];
}


const keyOf = (parsed: NonNullable<ReturnType<typeof parseApiKey>>, loaded: Awaited<ReturnType<typeof loadApiKeyWithDomains>>): AuthenticatedKey => {
  const { key, domains } = loaded;
  // The stored kind decides; a key whose prefix says otherwise was altered, and is no key of ours.
  if (!key || !safeEqual(key.secretHash, sha256Hex(parsed.secret)) || kindOf(key) !== parsed.kind) throw new UnauthorizedError('API key is not valid');
  if (key.revokedAt) throw new UnauthorizedError('API key has been revoked');
  return { tenantId: key.tenantId, keyId: key.keyId, kind: kindOf(key), allowedDomains: domains.map((domain) => domain.domain) };
};

/**
 * One Query (or none, while this instance remembers the key): the key, checked in constant time,
 * and the domains its origin check (`check`) needs. `fresh` reads the key now, whatever is remembered.
 */
export const authenticateApiKey = async (
  apiKey: string | undefined,
  options: { fresh?: boolean; check?: (key: AuthenticatedKey) => void } = {},
): Promise<AuthenticatedKey> => {
  if (!apiKey) throw new UnauthorizedError('API key is required');
  const parsed = parseApiKey(apiKey);
  if (!parsed) throw new UnauthorizedError('API key is malformed');
  const decide = (loaded: Awaited<ReturnType<typeof loadApiKeyWithDomains>>) => {
    const key = keyOf(parsed, loaded);
    options.check?.(key);
    return key;
  };
  const remembered = options.fresh ? undefined : knownKeys.get(parsed.keyId);
  if (remembered) {
    try {
      return decide(remembered);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
    }
  }
  return decide(await knownKeys.reload(parsed.keyId, () => loadApiKeyWithDomains(parsed.keyId), (loaded) => loaded.key !== undefined));
};
