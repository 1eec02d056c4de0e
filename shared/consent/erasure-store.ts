import { tableName } from '../db/client';
import type { NamedItem } from '../db/transact';
import { boundFields, type ErasableRecordField, type RecordBinding, type WithdrawalBinding } from './erasure-binding';
import { consentKeys } from './keys';
import type { ConsentRecord } from './record';
import { contactAttribute, erasedAttributes, valueAttributes } from './record-item';
import { recordKeyOf } from './store';

/**
 * Retention's erasures (retention/erase-lapsed.ts), each in the transaction of the retention.erased entry
 * that logs its binding (evidence-erasure.ts): nothing is erased unlogged, nothing logged stays.
 */

/**
 * Retention's erasure of what a record holds of her: the sealed contact (never part of its
 * evidence; `sealedContact`: one was read) and the values a logged binding names
 * (evidence-erasure.ts), each replaced by its hash (`xe`, `xua`, `xip`; format 4's salt by `xsl`),
 * the external id with its lookup keys (GSI3), in any proof format. Conditional on each value being the one read, so
 * only what the logged binding names is erased, and once.
 */
export const erasureUpdate = (
  record: Pick<ConsentRecord, 'tenantId' | 'recordId' | 'legacyKey' | 'dataPrincipalHash' | 'proofVersion' | ErasableRecordField>,
  binding: RecordBinding | undefined,
  sealedContact: boolean,
): NamedItem => {
  const names: Record<string, string> = { '#contact': contactAttribute };
  const values: Record<string, unknown> = { ':principal': consentKeys.principalPartition(record.tenantId, record.dataPrincipalHash) };
  const remove = ['#contact'];
  const set: string[] = [];
  // The contact that was read, so that of two erasures at once (a retry racing the sweep) one logs it.
  const conditions = ['GSI1PK = :principal', ...(sealedContact ? ['attribute_exists(#contact)'] : [])];
  const stored = valueAttributes(record.proofVersion);
  for (const [field, sha256] of Object.entries(binding ? boundFields('record', binding) : {}) as [ErasableRecordField, string][]) {
    const erased = erasedAttributes[field];
    set.push(`${erased} = :${erased}`);
    values[`:${erased}`] = Buffer.from(sha256, 'hex');
    conditions.push(`attribute_not_exists(${erased})`);
    if (field === 'externalId') remove.push('GSI3PK', 'GSI3SK');
    const attribute = stored[field];
    if (attribute) {
      names[`#${field}`] = attribute;
      remove.push(`#${field}`);
      conditions.push(`#${field} = :${field}`);
      values[`:${field}`] = record[field];
    } else if (field === 'externalId') {
      // Formats 2 to 4 hold the external id only in its lookup key.
      conditions.push('GSI3PK = :external');
      values[':external'] = consentKeys.externalPartition(record.tenantId, String(record.externalId));
    }
  }
  return {
    name: 'consent record',
    item: {
      Update: {
        TableName: tableName(),
        Key: recordKeyOf(record),
        UpdateExpression: `REMOVE ${remove.join(', ')}${set.length > 0 ? ` SET ${set.join(', ')}` : ''}`,
        ConditionExpression: conditions.join(' AND '),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    },
  };
};

/**
 * Retention's erasure of what a withdrawal holds of her: her email (kept to confirm the withdrawal
 * to her; never part of its evidence) and, when a logged binding names it, the reason she gave,
 * replaced by its hash (`reasonSha256`), with the salt that keys it where there is one
 * (`saltSha256`). Conditional on the reason (and salt) being the ones read.
 */
export const withdrawalErasureUpdate = (item: Record<string, unknown>, binding: WithdrawalBinding | undefined): NamedItem => {
  const reasonSha256 = binding?.reasonSha256;
  const saltSha256 = reasonSha256 ? binding?.saltSha256 : undefined;
  return {
    name: 'withdrawal',
    item: {
      Update: {
        TableName: tableName(),
        Key: consentKeys.withdrawal(String(item.tenantId), String(item.withdrawalId)),
        UpdateExpression: `REMOVE principalEmail${reasonSha256 ? `, #reason${saltSha256 ? ', #salt' : ''} SET reasonSha256 = :sha256${saltSha256 ? ', saltSha256 = :saltSha256' : ''}` : ''}`,
        // What was read: the reason bound, else the email (so that of two erasures at once, one logs it).
        ConditionExpression: reasonSha256
          ? `attribute_exists(PK) AND #reason = :reason AND attribute_not_exists(reasonSha256)${saltSha256 ? ' AND #salt = :salt AND attribute_not_exists(saltSha256)' : ''}`
          : 'attribute_exists(principalEmail)',
        ...(reasonSha256
          ? {
              ExpressionAttributeNames: { '#reason': 'reason', ...(saltSha256 ? { '#salt': 'salt' } : {}) },
              ExpressionAttributeValues: { ':reason': item.reason, ':sha256': reasonSha256, ...(saltSha256 ? { ':salt': item.salt, ':saltSha256': saltSha256 } : {}) },
            }
          : {}),
      },
    },
  };
};
