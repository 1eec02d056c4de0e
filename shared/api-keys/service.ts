import { nowIso } from '../clock';
import { safeEqual, sha256Hex } from '../crypto/hash';
import { NotFoundError, UnauthorizedError } from '../errors';
import { newId } from '../ids';
import { formatApiKey, maskApiKey, newApiKeySecret, parseApiKey } from './api-key';
import {
  deleteDomain,
  insertApiKey,
  insertDomain,
  listTenantApiKeys,
  loadApiKeyWithDomains,
  markApiKeyRevoked,
  type ApiKeyItem,
} from './store';

export const createApiKey = async (tenantId: string) => {
  const keyId = newId();
  const { secret, secretHash } = newApiKeySecret();
  const createdAt = nowIso();
  await insertApiKey({ keyId, tenantId, secretHash, last4: secret.slice(-4), createdAt });
  return { keyId, apiKey: formatApiKey(keyId, secret), createdAt };
};

const masked = (key: ApiKeyItem) => ({
  keyId: key.keyId,
  maskedKey: maskApiKey(key.keyId, key.last4),
  createdAt: key.createdAt,
  revokedAt: key.revokedAt ?? null,
});

export const listApiKeys = async (tenantId: string) => (await listTenantApiKeys(tenantId)).map(masked);

export const revokeApiKey = async (tenantId: string, keyId: string) =>
  masked(await markApiKeyRevoked(tenantId, keyId, nowIso()));

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
  await ownedKey(tenantId, keyId);
  const item = { domainId: newId(), domain, createdAt: nowIso() };
  await insertDomain(keyId, tenantId, item);
  return domainView(item);
};

export const removeDomain = async (tenantId: string, keyId: string, domainId: string) => {
  const { domains } = await ownedKey(tenantId, keyId);
  const match = domains.find((domain) => domain.domainId === domainId);
  if (!match) throw new NotFoundError('Domain');
  await deleteDomain(keyId, match.domain);
  return domainView(match);
};

export interface AuthenticatedKey {
  tenantId: string;
  keyId: string;
  allowedDomains: string[];
}

/** One Query: the key, checked in constant time, and the domains its origin check needs. */
export const authenticateApiKey = async (apiKey: string | undefined): Promise<AuthenticatedKey> => {
  if (!apiKey) throw new UnauthorizedError('API key is required');
  const parsed = parseApiKey(apiKey);
  if (!parsed) throw new UnauthorizedError('API key is malformed');
  const { key, domains } = await loadApiKeyWithDomains(parsed.keyId);
  if (!key || !safeEqual(key.secretHash, sha256Hex(parsed.secret))) throw new UnauthorizedError('API key is not valid');
  if (key.revokedAt) throw new UnauthorizedError('API key has been revoked');
  return { tenantId: key.tenantId, keyId: key.keyId, allowedDomains: domains.map((domain) => domain.domain) };
};
