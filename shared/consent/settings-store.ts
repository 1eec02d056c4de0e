import { GetCommand } from '../db/commands';
import { batchGetAll } from '../db/batch';
import { db, tableName } from '../db/client';
import type { OnConditionFailure } from '../db/errors';
import type { NamedItem } from '../db/transact';
import { mergedUpdate, type UpdatePart } from '../db/update';
import { ConflictError } from '../errors';
import { noticeKeys } from '../notices/keys';
import { consentKeys } from './keys';

/**
 * The tenant's consent settings item (`CONSENTSETTINGS`): the two settings, and one attribute per
 * live secret key holding its sealed identity verifier (`vk_<keyId>`, with a count of them), so
 * that sdk-record finds everything it needs to decide a record's attribution in the one item it
 * reads beside the published-notice pointer. Absent until the first setting or secret key.
 */
export const verifierPrefix = 'vk_';
const verifierName = (keyId: string) => `${verifierPrefix}${keyId}`;

/** Live secret keys per tenant: each is tried on a signature, so their number is kept small. */
export const maxLiveSecretKeys = 10;

export const getSettingsItem = async (tenantId: string): Promise<Record<string, unknown> | undefined> => {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: consentKeys.settings(tenantId), ConsistentRead: true }));
  return Item;
};

/**
 * What recording a consent reads: the published-notice pointer and the settings, strongly
 * consistent (a setting applies from the next request on), in one BatchGetItem round trip.
 */
export const getRecordingItems = async (tenantId: string): Promise<{ pointer?: Record<string, unknown>; settings?: Record<string, unknown> }> => {
  const pointerKey = noticeKeys.activePointer(tenantId);
  const items = await batchGetAll([pointerKey, consentKeys.settings(tenantId)], { consistent: true });
  return { pointer: items.find((item) => item.SK === pointerKey.SK), settings: items.find((item) => item.SK === consentKeys.settings(tenantId).SK) };
};

/** Only the fields given change (a PUT merges), each in one update: two writers never lose each other's field. */
const settingsUpdate = (tenantId: string, fields: Record<string, unknown>) => {
  const entries = Object.entries(fields);
  return {
    TableName: tableName(),
    Key: consentKeys.settings(tenantId),
    UpdateExpression: `SET #type = :type, tenantId = :tenant, ${entries.map((_, index) => `#f${index} = :v${index}`).join(', ')}`,
    ExpressionAttributeNames: { '#type': 'type', ...Object.fromEntries(entries.map(([name], index) => [`#f${index}`, name])) },
    ExpressionAttributeValues: { ':type': 'ConsentSettings', ':tenant': tenantId, ...Object.fromEntries(entries.map(([, value], index) => [`:v${index}`, value])) } as Record<string, unknown>,
  };
};

/** The settings changed since they were read (their revision moved on): read them again and decide again. */
export class SettingsChangedError extends ConflictError {
  constructor() {
    super('The consent settings were changed at the same moment; retry');
  }
}

/**
 * The settings' new values, to be written with the logged document that records the change, in
 * one transaction, conditional on the settings being as read (`settingsRevision`, counted by each
 * save; absent before the first), so the document's "from" is what was replaced. Identity
 * verifiers change the item without touching the revision, and do not conflict.
 */
export const settingsRevisionOf = (item: Record<string, unknown> | undefined): number => Number(item?.settingsRevision ?? 0);

export const settingsChangeItem = (tenantId: string, readRevision: number, fields: Record<string, unknown>, absent: readonly string[] = []): NamedItem => {
  const update = settingsUpdate(tenantId, { ...fields, settingsRevision: readRevision + 1 });
  // `absent`: attributes that other writers set without the revision (retention/settings.ts's marks) and this save requires missing.
  const conditions = [readRevision === 0 ? 'attribute_not_exists(settingsRevision)' : 'settingsRevision = :readRevision', ...absent.map((_, index) => `attribute_not_exists(#absent${index})`)];
  return {
    name: 'consent settings',
    item: {
      Update: {
        ...update,
        ConditionExpression: conditions.join(' AND '),
        ExpressionAttributeNames: { ...update.ExpressionAttributeNames, ...Object.fromEntries(absent.map((name, index) => [`#absent${index}`, name])) },
        ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ...(readRevision === 0 ? {} : { ':readRevision': readRevision }) },
      },
    },
    onConditionFailure: () => new SettingsChangedError(),
  };
};

/** A mark a purpose keeps on the settings item, with the error its condition's failure means (if it has one). */
export interface SettingsMark extends UpdatePart {
  onConditionFailure?: OnConditionFailure;
}

/**
 * A purpose's marks on the settings item (its childProhibited mark: children/policy.ts; its
 * retention marks: retention/settings.ts), as the one operation on the item that the purpose's
 * transaction may hold. At most one of them has a condition, so a failure says which.
 */
export const settingsMarks = (tenantId: string, marks: readonly SettingsMark[]): NamedItem => {
  const conditional = marks.filter((mark) => mark.condition);
  if (conditional.length > 1) throw new Error('at most one settings mark of a write may have a condition');
  const item = { set: ['#type = :type', 'tenantId = :tenant'], names: { '#type': 'type' }, values: { ':type': 'ConsentSettings', ':tenant': tenantId } };
  const failure = conditional[0]?.onConditionFailure;
  return {
    name: 'consent settings marks',
    item: { Update: { TableName: tableName(), Key: consentKeys.settings(tenantId), ...mergedUpdate([item, ...marks]) } },
    ...(failure ? { onConditionFailure: failure } : {}),
  };
};

/** A new secret key's verifier, in the key's own creation transaction; refused past the live-key limit. */
export const verifierAdd = (tenantId: string, keyId: string, sealed: string): NamedItem => ({
  name: 'identity verifier',
  item: {
    Update: {
      TableName: tableName(),
      Key: consentKeys.settings(tenantId),
      UpdateExpression: 'SET #type = :type, tenantId = :tenant, #verifier = :sealed ADD liveSecretKeys :one',
      ConditionExpression: 'attribute_not_exists(liveSecretKeys) OR liveSecretKeys < :max',
      ExpressionAttributeNames: { '#type': 'type', '#verifier': verifierName(keyId) },
      ExpressionAttributeValues: { ':type': 'ConsentSettings', ':tenant': tenantId, ':sealed': sealed, ':one': 1, ':max': maxLiveSecretKeys },
    },
  },
  onConditionFailure: () => new ConflictError(`A tenant has at most ${maxLiveSecretKeys} live secret keys; revoke one first`),
});

/** A revoked secret key's verifier goes in the revocation's transaction: its signatures stop verifying at once. */
export const verifierRemove = (tenantId: string, keyId: string): NamedItem => ({
  name: 'identity verifier',
  item: {
    Update: {
      TableName: tableName(),
      Key: consentKeys.settings(tenantId),
      UpdateExpression: 'REMOVE #verifier ADD liveSecretKeys :minusOne',
      ConditionExpression: 'attribute_exists(#verifier)',
      ExpressionAttributeNames: { '#verifier': verifierName(keyId) },
      ExpressionAttributeValues: { ':minusOne': -1 },
    },
  },
});

/** The sealed verifiers of the live secret keys, by key id. */
export const verifiersOf = (item: Record<string, unknown> | undefined): Map<string, string> =>
  new Map(
    Object.entries(item ?? {})
      .filter(([name, value]) => name.startsWith(verifierPrefix) && typeof value === 'string')
      .map(([name, value]) => [name.slice(verifierPrefix.length), value as string]),
  );
