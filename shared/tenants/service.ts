import * as z from 'zod/mini';
import { nowIso } from '../clock';
import { limitConfig } from '../config';
import { newId } from '../ids';
import { roles } from '../roles';
import { emailSchema, passwordSchema } from '../users/schemas';
import { newUser } from '../users/service';
import { insertUser } from '../users/store';
import { normaliseEmail } from '../users/keys';
import { publicUser } from '../users/user';
import { isTimeZone } from '../time/format';
import { parseInput } from '../validation';
import { insertTenantWithAdmin, requireTenant } from './store';
import { plans, slugify, slugSchema, type Tenant } from './tenant';

export const createTenantInput = z.strictObject({
  name: z.string().check(z.trim(), z.minLength(2), z.maxLength(200)),
  slug: z.optional(slugSchema),
  plan: z._default(z.enum(plans), 'standard'),
  website: z.optional(z.url({ protocol: /^https?$/ })),
  dpoEmail: z.optional(emailSchema),
  timeZone: z.optional(z.string().check(z.refine(isTimeZone, 'an IANA time zone, such as Asia/Kolkata'))),
  monthlyConsentLimit: z.optional(z.number().check(z.int(), z.positive())),
  adminEmail: emailSchema,
  adminPassword: passwordSchema,
});
export type CreateTenantInput = z.input<typeof createTenantInput>;

/** Creates a tenant with its first user, a SUPER_ADMIN. */
export const createTenant = async (raw: CreateTenantInput) => {
  const input = parseInput(createTenantInput, raw);
  const createdAt = nowIso();
  const defaults = limitConfig.defaultPlanLimits;
  const tenant: Tenant = {
    tenantId: newId(),
    name: input.name,
    slug: input.slug ?? slugify(input.name),
    plan: input.plan,
    website: input.website ?? null,
    dpoEmail: input.dpoEmail ? normaliseEmail(input.dpoEmail) : normaliseEmail(input.adminEmail),
    ...(input.timeZone ? { timeZone: input.timeZone } : {}),
    limits: { ...defaults, monthlyConsentLimit: input.monthlyConsentLimit ?? defaults.monthlyConsentLimit },
    userCount: 1,
    createdAt,
  };
  const admin = await newUser(tenant.tenantId, { email: input.adminEmail, role: 'SUPER_ADMIN', password: input.adminPassword });
  await insertTenantWithAdmin(tenant, admin);
  return { tenantId: tenant.tenantId, slug: tenant.slug, plan: tenant.plan, admin: publicUser(admin) };
};

export const addUserInput = z.strictObject({
  tenantId: z.uuid(),
  email: emailSchema,
  password: passwordSchema,
  role: z.enum(roles),
});
export type AddUserInput = z.input<typeof addUserInput>;

export const addUser = async (raw: AddUserInput) => {
  const input = parseInput(addUserInput, raw);
  await requireTenant(input.tenantId);
  const user = await newUser(input.tenantId, input);
  await insertUser(user);
  return publicUser(user);
};
