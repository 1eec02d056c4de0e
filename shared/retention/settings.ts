import type * as z from 'zod/mini';
import { consentKeys } from '../consent/keys';
import { canonicalJson } from '../consent/proof';
import { saveLoggedSettings } from '../consent/settings';
import { getSettingsItem, type SettingsMark } from '../consent/settings-store';
import { UpdateCommand } from '../db/commands';
import { db, tableName } from '../db/client';
import { ValidationError } from '../errors';
import type { Purpose } from '../notices/notice';
import { longerThan, parseDuration } from './duration';
import type { retentionSettingsBody } from './schemas';
import { thirdScheduleClassIds, thirdScheduleNoticeHours, thirdSchedulePeriod, type ThirdScheduleClass } from './third-schedule';

/**
 * A tenant's retention settings, on the consent settings item (`CONSENTSETTINGS`) beside the
 * children policy, saved and logged as those are (consent/settings.ts): who put the tenant in the
 * Third Schedule, and how much notice principals get, is evidence too.
 *
 * The Third Schedule's bound (rule 8(1)): a tenant in it keeps no purpose's data longer than three
 * years from the principal's last activity, unless the purpose is excepted. Both sides of that rule
 * write the settings item, so neither can slip past the other: a purpose whose retention is longer
 * is marked in the string set `longRetention` (its id), in its own write, conditional on the tenant
 * not being in the schedule; putting the tenant in the schedule is conditional on that set being
 * absent (DynamoDB removes an emptied set).
 */
export interface RetentionSettings {
  thirdScheduleClass: ThirdScheduleClass | null;
  noticeHours: number;
}

export const defaultRetentionSettings: RetentionSettings = { thirdScheduleClass: null, noticeHours: 0 };

const longRetentionAttribute = 'longRetention';
/** Purpose ids with a retention; `retainingKnownAttribute` says every one of them is there (retentionInForceOf). */
const retainingAttribute = 'retainingPurposes';
const retainingKnownAttribute = 'retainingPurposesKnown';

/** The settings an item holds, the defaults for what it lacks; a malformed value reads as the default. */
export const retentionSettingsOf = (item: Record<string, unknown> | undefined): RetentionSettings => {
  const stored = (item?.retention ?? {}) as Partial<RetentionSettings>;
  const thirdScheduleClass = thirdScheduleClassIds.includes(stored.thirdScheduleClass as ThirdScheduleClass) ? stored.thirdScheduleClass! : null;
  const noticeHours = Number.isInteger(stored.noticeHours) && stored.noticeHours! >= 0 ? stored.noticeHours! : defaultRetentionSettings.noticeHours;
  // Fails closed: a tenant in the schedule never gives less notice than rule 8(2), whatever the item says.
  return { thirdScheduleClass, noticeHours: thirdScheduleClass ? Math.max(noticeHours, thirdScheduleNoticeHours) : noticeHours };
};

/** Purpose ids marked as keeping data past the schedule's three years. */
const longRetentionOf = (item: Record<string, unknown> | undefined): string[] => {
  const marks = item?.[longRetentionAttribute];
  return marks instanceof Set ? [...(marks as Set<string>)].sort() : [];
};

const view = (item: Record<string, unknown> | undefined) => {
  const stored = (item?.retention ?? {}) as { updatedAt?: string; updatedBy?: string };
  return { ...retentionSettingsOf(item), updatedAt: stored.updatedAt ?? null, updatedBy: stored.updatedBy ?? null };
};

export const readRetentionSettings = async (tenantId: string) => view(await getSettingsItem(tenantId));

export const readRetention = async (tenantId: string): Promise<RetentionSettings> => retentionSettingsOf(await getSettingsItem(tenantId));

const scheduleLimit = parseDuration(thirdSchedulePeriod)!;

/** Whether a purpose keeps data past three years from the last activity without an exception: what a Third Schedule tenant may not do. */
export const keepsPastSchedule = (purpose: Pick<Purpose, 'retention' | 'thirdScheduleException'>): boolean =>
  purpose.retention?.from === 'LAST_ACTIVITY' && !purpose.thirdScheduleException && longerThan(parseDuration(purpose.retention.period)!, scheduleLimit);

export const pastScheduleMessage = `longer than ${thirdSchedulePeriod} from LAST_ACTIVITY: the tenant is in the Third Schedule (rule 8(1)); shorten it, or mark the purpose with its thirdScheduleException`;

/**
 * Merges the given fields. A Third Schedule tenant gives at least 48 hours' notice (rule 8(2)):
 * entering the schedule raises noticeHours to 48 unless a larger value is kept or sent, and a
 * smaller one sent is refused. Entering it is refused while a purpose keeps data past three years.
 */
export const saveRetentionSettings = async (tenantId: string, changes: z.output<typeof retentionSettingsBody>, userId: string) =>
  view(
    await saveLoggedSettings(tenantId, userId, (current, at, by) => {
      const before = retentionSettingsOf(current);
      const thirdScheduleClass = changes.thirdScheduleClass === undefined ? before.thirdScheduleClass : changes.thirdScheduleClass;
      const noticeHours = changes.noticeHours ?? (thirdScheduleClass ? Math.max(before.noticeHours, thirdScheduleNoticeHours) : before.noticeHours);
      const fields: Record<string, string> = {};
      if (thirdScheduleClass && noticeHours < thirdScheduleNoticeHours) fields.noticeHours = `at least ${thirdScheduleNoticeHours} for a Third Schedule tenant (rule 8(2))`;
      const long = longRetentionOf(current);
      if (thirdScheduleClass && long.length > 0) fields.retention = `purposes ${long.join(', ')} keep data ${pastScheduleMessage}`;
      if (Object.keys(fields).length > 0) throw new ValidationError(fields);
      const after: RetentionSettings = { thirdScheduleClass, noticeHours };
      const changed = (Object.keys(after) as (keyof RetentionSettings)[]).filter((name) => canonicalJson(before[name]) !== canonicalJson(after[name]));
      return {
        fields: { retention: { ...after, updatedAt: at, updatedBy: by } },
        changes: Object.fromEntries(changed.map((name) => [`retention.${name}`, { from: before[name], to: after[name] }])),
        ...(thirdScheduleClass ? { absent: [longRetentionAttribute] } : {}),
      };
    }),
  );

/**
 * A purpose's marks on the settings item, written with the purpose (consent/settings-store.ts
 * settingsMarks): in `retainingPurposes` while it has a retention (what decides whether decisions
 * count: retentionInForceOf), and in `longRetention` while it keeps data past the Third Schedule's
 * bound, that one conditional on the tenant not being in the schedule (else 400 naming `retention`).
 */
export const retentionMarks = (purposeId: string, purpose: Pick<Purpose, 'retention' | 'thirdScheduleException'>): SettingsMark => {
  const [retains, long] = [Boolean(purpose.retention), keepsPastSchedule(purpose)];
  const names = { '#retaining': retainingAttribute, '#long': longRetentionAttribute };
  const changes = { add: [...(retains ? ['#retaining :purpose'] : []), ...(long ? ['#long :purpose'] : [])], delete: [...(retains ? [] : ['#retaining :purpose']), ...(long ? [] : ['#long :purpose'])] };
  const values = { ':purpose': new Set([purposeId]) };
  if (!long) return { ...changes, names, values };
  return {
    ...changes,
    condition: 'attribute_not_exists(#retention.#class) OR attribute_type(#retention.#class, :null)',
    names: { ...names, '#retention': 'retention', '#class': 'thirdScheduleClass' },
    values: { ...values, ':null': 'NULL' },
    onConditionFailure: () => new ValidationError({ retention: pastScheduleMessage }),
  };
};

/**
 * Whether anything of the tenant's can fall due: the Third Schedule, or a purpose with a
 * retention. Without either, decisions need not put principals in the due index (2 WRU each).
 */
export const retentionInForce = (settings: RetentionSettings, purposes: readonly Pick<Purpose, 'retention'>[]): boolean =>
  settings.thirdScheduleClass !== null || purposes.some((purpose) => purpose.retention);

/**
 * The same from the settings item alone, as its marks say: undefined while they may not name
 * every purpose with a retention (one written before the marks existed), until markRetainingPurposes.
 */
export const retentionInForceOf = (item: Record<string, unknown> | undefined): boolean | undefined => {
  if (retentionSettingsOf(item).thirdScheduleClass !== null) return true;
  const marks = item?.[retainingAttribute];
  if (marks instanceof Set && marks.size > 0) return true;
  return item?.[retainingKnownAttribute] === true ? false : undefined;
};

/**
 * Marks the tenant's purposes with a retention, as read (strongly consistent) after every change a
 * purpose's own write marked itself for, and from then on says the marks are complete. Adding
 * only, so a purpose's own mark or unmark made meanwhile is never lost: a retention added
 * meanwhile keeps its mark; one removed meanwhile may keep a stale mark, which costs a tenant
 * writes it need not make (decisions counted) until the purpose is next written, never a decision
 * not counted.
 */
export const markRetainingPurposes = async (tenantId: string, purposes: readonly Pick<Purpose, 'purposeId' | 'retention'>[]): Promise<void> => {
  const retaining = purposes.filter((purpose) => purpose.retention).map((purpose) => purpose.purposeId);
  // DynamoDB has no empty set: with none to mark, only the flag is set.
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: consentKeys.settings(tenantId),
      UpdateExpression: `SET #type = :type, tenantId = :tenant, #known = :true${retaining.length > 0 ? ' ADD #retaining :ids' : ''}`,
      ExpressionAttributeNames: { '#type': 'type', '#known': retainingKnownAttribute, ...(retaining.length > 0 ? { '#retaining': retainingAttribute } : {}) },
      ExpressionAttributeValues: { ':type': 'ConsentSettings', ':tenant': tenantId, ':true': true, ...(retaining.length > 0 ? { ':ids': new Set(retaining) } : {}) },
    }),
  );
};
