import type { ConsentRecord } from '../consent/record';
import { signReceipt } from './receipt';
import { receiptSigner } from './signers';

/** The receipt sdk-record and record return: what the principal or tenant keeps to check against the log later. */
export const issueReceipt = async (record: ConsentRecord): Promise<string> =>
  signReceipt(
    {
      rid: record.recordId,
      ph: record.proofHash,
      tid: record.tenantId,
      nid: record.noticeId,
      nv: record.noticeVersionNumber,
      ...(record.attribution ? { att: record.attribution } : {}),
      iat: Math.floor(Date.parse(record.createdAt) / 1000),
    },
    await receiptSigner(),
  );
