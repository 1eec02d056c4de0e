import { dpoContactOf } from '../notices/dpo-contact';
import { requireTenant } from '../tenants/store';
import { currentActors } from '../users/actor';
import { packDocumentModel, packUserIds } from './document';
import type { EvidencePack } from './pack';

/**
 * What the pack's document needs beyond the pack: the DPO's contact, the tenant's time zone, and
 * the team members its evidence names by id. The hashed evidence names them only by id, so they
 * are read from the team as it is now (the document says so).
 */
export const packDocument = async (pack: EvidencePack) => {
  const tenant = await requireTenant(pack.tenant.tenantId);
  const [dpoContact, actors] = await Promise.all([dpoContactOf(tenant), currentActors(tenant.tenantId, packUserIds(pack))]);
  return packDocumentModel(pack, { dpoContact, timeZone: tenant.timeZone, actors });
};
