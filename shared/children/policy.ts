import type * as z from 'zod/mini';
import { ValidationError } from '../errors';
import { canonicalJson } from '../consent/proof';
import { saveLoggedSettings } from '../consent/settings';
import { getSettingsItem, type SettingsMark } from '../consent/settings-store';
import type { VerificationMethod } from '../consent/states';
import { partAClassIds, partBPurposeIds, type PartAClass, type PartBPurpose } from './fourth-schedule';
import { audiences, type Audience, type childrenSettingsBody } from './schemas';

/**
 * A tenant's policy for children and guarded persons, kept on the consent settings item
 * (`CONSENTSETTINGS`, consent/settings-store.ts) beside the settings recording already reads in
 * the same BatchGetItem as the published-notice pointer: a child's decision costs no extra read to
 * decide. The policy is one attribute (`children`); the purposes marked childProhibited are one
 * attribute each (`cp_<purposeId>`), set and removed in the purpose's own update, so that the two
 * writers never overwrite each other.
 */
export interface ChildrenPolicy {
  audience: Audience;
  askAge: boolean;
  methods: VerificationMethod[];
  tokenIssuers: { issuer: string; jwksUrl: string; ageClaim: string }[];
  fourthScheduleClass: PartAClass | null;
  purposeExemptions: { purposeId: string; exemption: PartBPurpose }[];
  childProhibitedPurposes: string[];
}

/** Until a DPO decides: no children (ADULTS refuses a child's decision), parents confirm by declaring. */
export const defaultPolicy: Omit<ChildrenPolicy, 'childProhibitedPurposes'> = {
  audience: 'ADULTS',
  askAge: false,
  methods: ['SELF_DECLARED'],
  tokenIssuers: [],
  fourthScheduleClass: null,
  purposeExemptions: [],
};

export const prohibitedPrefix = 'cp_';
export const prohibitedAttribute = (purposeId: string) => `${prohibitedPrefix}${purposeId}`;

/** The policy an item holds, defaults for what it lacks; anything malformed reads as the default (fails closed: ADULTS). */
export const policyOf = (item: Record<string, unknown> | undefined): ChildrenPolicy => {
  const stored = (item?.children ?? {}) as Partial<ChildrenPolicy>;
  return {
    audience: audiences.includes(stored.audience as Audience) ? stored.audience! : defaultPolicy.audience,
    askAge: stored.askAge === true,
    methods: Array.isArray(stored.methods) ? stored.methods : defaultPolicy.methods,
    tokenIssuers: Array.isArray(stored.tokenIssuers) ? stored.tokenIssuers : [],
    fourthScheduleClass: partAClassIds.includes(stored.fourthScheduleClass as PartAClass) ? stored.fourthScheduleClass! : null,
    purposeExemptions: Array.isArray(stored.purposeExemptions) ? stored.purposeExemptions.filter((entry) => partBPurposeIds.includes(entry.exemption)) : [],
    childProhibitedPurposes: Object.keys(item ?? {})
      .filter((name) => name.startsWith(prohibitedPrefix) && item![name] === true)
      .map((name) => name.slice(prohibitedPrefix.length))
      .sort(),
  };
};

const view = (item: Record<string, unknown> | undefined) => {
  const children = (item?.children ?? {}) as { updatedAt?: string; updatedBy?: string };
  return { ...policyOf(item), updatedAt: children.updatedAt ?? null, updatedBy: children.updatedBy ?? null };
};

export const readChildrenSettings = async (tenantId: string) => view(await getSettingsItem(tenantId));

/** What the widget learns of the policy with the public notice (s.9): whether to ask the age, and the purposes never offered to a child; nothing for an adults-only audience. */
export const noticeChildrenFields = (policy: ChildrenPolicy) => (policy.audience === 'ADULTS' ? {} : { children: { askAge: policy.askAge, prohibited: policy.childProhibitedPurposes } });

export const readChildrenPolicy = async (tenantId: string): Promise<ChildrenPolicy> => policyOf(await getSettingsItem(tenantId));

/** The policy's own fields, as stored and logged (the prohibited purposes are the purposes' own marks). */
const storedOf = ({ childProhibitedPurposes: _derived, ...stored }: ChildrenPolicy) => ({ ...stored, methods: [...new Set(stored.methods)] });

/**
 * Merges the given fields into the policy. A purpose cannot be both exempt and childProhibited:
 * the schedule lifts s.9(3) only under its conditions, which a DPO states by exempting a purpose
 * that is not marked as tracking or advertising. Issuers are unique by `issuer`. Each field that
 * changes is logged as the consent settings' changes are (`children.<field>`, from and to), in the
 * same transaction: who let children in, and how their parents are verified, is evidence too.
 */
export const saveChildrenSettings = async (tenantId: string, changes: z.output<typeof childrenSettingsBody>, userId: string) =>
  view(
    await saveLoggedSettings(tenantId, userId, (current, at, by) => {
      const policy = policyOf(current);
      const merged = { ...policy, ...Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) } as ChildrenPolicy;
      const fields: Record<string, string> = {};
      const issuers = merged.tokenIssuers.map((issuer) => issuer.issuer);
      if (new Set(issuers).size !== issuers.length) fields.tokenIssuers = 'each issuer at most once';
      if (merged.methods.includes('VIRTUAL_TOKEN') && merged.tokenIssuers.length === 0) fields.tokenIssuers = 'VIRTUAL_TOKEN needs at least one issuer';
      if (merged.audience !== 'ADULTS' && merged.methods.length === 0) fields.methods = 'at least one method, unless audience is ADULTS';
      const exempted = merged.purposeExemptions.map((entry) => entry.purposeId);
      if (new Set(exempted).size !== exempted.length) fields.purposeExemptions = 'each purpose at most once';
      const clash = exempted.filter((purposeId) => merged.childProhibitedPurposes.includes(purposeId));
      if (clash.length > 0) fields.purposeExemptions = `childProhibited purposes cannot be exempt: ${clash.join(', ')}`;
      if (Object.keys(fields).length > 0) throw new ValidationError(fields);
      const [before, after] = [storedOf(policy), storedOf(merged)];
      const changed = (Object.keys(after) as (keyof typeof after)[]).filter((name) => canonicalJson(before[name]) !== canonicalJson(after[name]));
      return {
        fields: { children: { ...after, updatedAt: at, updatedBy: by } },
        changes: Object.fromEntries(changed.map((name) => [`children.${name}`, { from: before[name], to: after[name] }])),
      };
    }),
  );

/** A purpose's childProhibited mark on the settings item, written with the purpose (consent/settings-store.ts settingsMarks). */
export const prohibitedMark = (purposeId: string, prohibited: boolean): SettingsMark =>
  prohibited ? { set: ['#prohibited = :true'], names: { '#prohibited': prohibitedAttribute(purposeId) }, values: { ':true': true } } : { remove: ['#prohibited'], names: { '#prohibited': prohibitedAttribute(purposeId) } };
