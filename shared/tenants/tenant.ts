import * as z from 'zod/mini';

export const plans = ['standard', 'collect-only'] as const;
export type Plan = (typeof plans)[number];

export interface PlanLimits {
  monthlyConsentLimit: number;
  webhooks: number;
  notices: number;
  teamMembers: number;
}

export interface Tenant {
  tenantId: string;
  name: string;
  slug: string;
  plan: Plan;
  website: string | null;
  dpoEmail: string | null;
  /** The IANA zone people of the tenant read times in (dashboard, pages, mails, documents); absent: India's (shared/time/format.ts). */
  timeZone?: string;
  limits: PlanLimits;
  /** Users in the tenant, kept on write so the team-member limit is one conditional update. */
  userCount: number;
  createdAt: string;
}

export const slugSchema = z.string().check(z.minLength(2), z.maxLength(63), z.regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'lower-case letters, digits and single hyphens'));

export const slugify = (name: string): string =>
  name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63) || 'tenant';
