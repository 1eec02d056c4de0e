import type { processorRoles } from './schemas';

/** A place where the tenant holds personal data, what it is processed for and who it is shared with. */
export interface DataAsset {
  tenantId: string;
  assetId: string;
  name: string;
  description: string;
  system: string;
  location: string;
  dataCategories: string[];
  purposeIds: string[];
  processorIds: string[];
  retentionDays: number | null;
  /** Bumped by every change; changes and the delete are conditional on the revision read. */
  revision: number;
  createdAt: string;
  updatedAt: string;
}

/** A processor, or another data fiduciary, the tenant shares personal data with. */
export interface Processor {
  tenantId: string;
  processorId: string;
  name: string;
  role: (typeof processorRoles)[number];
  contactEmail: string | null;
  country: string;
  description: string;
  lawfulDisclosure: boolean;
  /** Assets listing it, kept by the assets' own transactions. */
  linkedAssets: number;
  createdAt: string;
  updatedAt: string;
}
