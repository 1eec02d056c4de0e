import { nowIso } from '../clock';
import { publicWithdrawalModes, type PublicWithdrawalMode } from './schemas';
import { forgetRecordingItems } from './recording-items';
import { getSettingsItem, updateSettingsItem } from './settings-store';

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

/**
 * Merges the given settings in. withdraw-public reads them strongly consistent on every request;
 * sdk-record as this instance remembers them, which this instance forgets here, so in it they
 * apply from the next request on (elsewhere as docs/security.md states).
 */
export const saveConsentSettings = async (tenantId: string, changes: Partial<ConsentSettings>, userId: string) => {
  const saved = await updateSettingsItem(tenantId, {
    ...Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)),
    updatedAt: nowIso(),
    updatedBy: `user:${userId}`,
  });
  forgetRecordingItems(tenantId);
  return view(saved);
};
