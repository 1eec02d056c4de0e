/** The logged documents of retention (each an entry of the tenant's evidence log). */
export const retentionDocumentTypes = {
  notice: 'retention.notice',
  cancelled: 'retention.cancelled',
  run: 'retention.erasure-run',
  erased: 'retention.erased',
  assetResolved: 'retention.erasure-asset-resolved',
} as const;
