import { nowIso } from '../clock';
import { publicWithdrawalModes, type PublicWithdrawalMode } from './schemas';
import { forgetRecordingItems } from './recording-items';
import { ContentionError } from '../db/errors';
import { writeTransaction } from '../db/transact';
import { documentPut, documentsOf } from '../evidence/documents';
import { getSettingsItem, settingsChangeItem, SettingsChangedError, settingsRevisionOf } from './settings-store';

/**
 * A tenant's consent settings (extension):
 * - requireVerifiedIdentity: sdk-record refuses a record whose principal is not verified (an
 *   unsigned identifierHash, or no identifier at all), so every widget record names a person the
 *   tenant's server vouched for.
 * - publicWithdrawal: IMMEDIATE (the spec: withdraw-public withdraws at once for anyone holding
 *   the publishable key and the email) or CONFIRM_BY_EMAIL (withdraw-public mails the address a
 *   single-use link, and the withdrawal happens when the person confirms on the withdrawal page).
 */

export interface ConsentSettings {
  requireVerifiedIdentity: boolean;
  publicWithdrawal: PublicWithdrawalMode;
}

export const defaultSettings: ConsentSettings = { requireVerifiedIdentity: false, publicWithdrawal: 'IMMEDIATE' };

/** The settings an item holds, the defaults for what it lacks (or for no item at all). */
export const settingsOf = (item: Record<string, unknown> | undefined): ConsentSettings => ({
  requireVerifiedIdentity: item?.requireVerifiedIdentity === true,
  publicWithdrawal: publicWithdrawalModes.includes(item?.publicWithdrawal as PublicWithdrawalMode) ? (item!.publicWithdrawal as PublicWithdrawalMode) : defaultSettings.publicWithdrawal,
});

const view = (item: Record<string, unknown> | undefined) => ({
  ...settingsOf(item),
  updatedAt: typeof item?.updatedAt === 'string' ? item.updatedAt : null,
  updatedBy: typeof item?.updatedBy === 'string' ? item.updatedBy : null,
});

export const readConsentSettings = async (tenantId: string) => view(await getSettingsItem(tenantId));

export const readSettings = async (tenantId: string): Promise<ConsentSettings> => settingsOf(await getSettingsItem(tenantId));

/** What a change of the settings is logged as: a document in the tenant's evidence log (shared/evidence/documents.ts). */
export const settingsDocumentType = 'consent.settings-changed';
export const settingsSubject = 'consent-settings';

const maxSaveAttempts = 3;

/** What a save writes to the settings item, and each value it changes (from, to), as `plan` decides them on the item as read. */
export interface SettingsSave {
  fields: Record<string, unknown>;
  changes: Record<string, { from: unknown; to: unknown }>;
  /** Attributes the item must not have when written (set by other writers without the revision); a race with one is retried and decided again. */
  absent?: readonly string[];
}

/**
 * Saves the settings item as `plan` decides on it as read. What changes is logged: a document in
 * the tenant's evidence log (who, when, each setting from and to), written in the settings' own
 * transaction, conditional on the item's revision being the one read (retried on a race), so the
 * log holds every change a DPO made to how consent is taken (these settings, the children policy),
 * verifiable like the records themselves. sdk-record reads the item as this instance remembers it,
 * which this instance forgets here, so in it a change applies from the next request on (elsewhere
 * as docs/security.md states).
 */
export const saveLoggedSettings = async (tenantId: string, userId: string, plan: (item: Record<string, unknown> | undefined, at: string, by: string) => SettingsSave) => {
  for (let attempt = 1; ; attempt += 1) {
    const item = await getSettingsItem(tenantId);
    const at = nowIso();
    const by = `user:${userId}`;
    const { fields, changes, absent } = plan(item, at, by);
    const revision = settingsRevisionOf(item) + 1;
    const content = { by, revision, changes };
    const logged = Object.keys(changes).length > 0 ? [documentPut({ tenantId, documentType: settingsDocumentType, subjectId: settingsSubject, at, content }).item] : [];
    try {
      await writeTransaction([settingsChangeItem(tenantId, revision - 1, fields, absent), ...logged]);
    } catch (error) {
      if ((error instanceof SettingsChangedError || error instanceof ContentionError) && attempt < maxSaveAttempts) continue;
      throw error;
    }
    forgetRecordingItems(tenantId);
    return { ...item, ...fields };
  }
};

/**
 * Merges the given settings in (a value that changes is logged, above). withdraw-public reads the
 * settings strongly consistent on every request.
 */
export const saveConsentSettings = async (tenantId: string, changes: Partial<ConsentSettings>, userId: string) =>
  view(
    await saveLoggedSettings(tenantId, userId, (item, at, by) => {
      const before = settingsOf(item);
      const sent = Object.entries(changes).filter(([, value]) => value !== undefined) as [keyof ConsentSettings, ConsentSettings[keyof ConsentSettings]][];
      const changed = sent.filter(([name, value]) => before[name] !== value);
      return { fields: { ...Object.fromEntries(sent), updatedAt: at, updatedBy: by }, changes: Object.fromEntries(changed.map(([name, to]) => [name, { from: before[name], to }])) };
    }),
  );

/** The logged changes of the settings, newest (highest revision) first: who changed what from what to what, and the hash the log holds. */
export const listSettingsChanges = async (tenantId: string) =>
  (await documentsOf(tenantId, settingsSubject))
    .map((document) => {
      const { content } = JSON.parse(document.canonical) as { content: { by: string; revision: number; changes: Record<string, { from: unknown; to: unknown }> } };
      return { documentId: document.documentId, at: document.at, by: content.by, revision: content.revision, changes: content.changes, hash: document.hash };
    })
    .sort((a, b) => b.revision - a.revision);
