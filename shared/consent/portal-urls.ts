import { engineConfig } from '../config';

/** The withdrawal pages' addresses, built in one place from PORTAL_BASE_URL. */
const portalBase = (): string => (engineConfig.portalBaseUrl ?? '/portal').replace(/\/$/, '');

/** The single-use link a withdrawal token opens. */
export const portalLinkUrl = (token: string): string => `${portalBase()}/${token}`;

/**
 * The tenant's public withdrawal page (ask for a link by email). Null without a configured
 * portal: then the notice must carry its own withdrawalUrl (the publish gate says so).
 */
export const tenantPortalPageUrl = (slug: string): string | null =>
  engineConfig.portalBaseUrl ? `${portalBase()}/t/${encodeURIComponent(slug)}` : null;

/** A rights request's page: confirm it, follow it, read the answer (`/portal/r/<token>`). */
export const rightsRequestUrl = (token: string): string => `${portalBase()}/r/${token}`;

/** A parent's or guardian's page: approve or refuse a child's decision (`/portal/g/<token>`). */
export const guardianPageUrl = (token: string): string => `${portalBase()}/g/${token}`;
