import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue as StreamAttributeValue, DynamoDBRecord } from 'aws-lambda';
import { consentKeys } from '../consent/keys';

/**
 * One change of the table, as its stream reports it: what the consumers (functions/stream/consumers.ts)
 * see, whether the record came in a Lambda event (AWS) or from GetRecords (the local stream reader).
 */
export interface StreamChange {
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE';
  sequenceNumber: string;
  keys: Record<string, unknown>;
  newImage?: Record<string, unknown>;
  oldImage?: Record<string, unknown>;
}

type Image = Record<string, StreamAttributeValue | AttributeValue>;

/**
 * Lambda's event JSON carries binary attributes as base64 strings, GetRecords as bytes: both
 * become the Uint8Array the document client reads, so a consumer sees the same item either way.
 */
const bytesOf = (value: unknown): Uint8Array => (typeof value === 'string' ? new Uint8Array(Buffer.from(value, 'base64')) : (value as Uint8Array));

const attributeOf = (value: StreamAttributeValue | AttributeValue): AttributeValue => {
  // DynamoDB Local's stream writes an empty map as `{}` instead of `{ "M": {} }`.
  if (Object.keys(value).length === 0) return { M: {} };
  if (value.B !== undefined) return { B: bytesOf(value.B) };
  if (value.BS !== undefined) return { BS: (value.BS as unknown[]).map(bytesOf) };
  if (value.L !== undefined) return { L: (value.L as (StreamAttributeValue | AttributeValue)[]).map(attributeOf) };
  if (value.M !== undefined) return { M: imageOf(value.M as Image) };
  return value as AttributeValue;
};

const imageOf = (image: Image): Record<string, AttributeValue> =>
  Object.fromEntries(Object.entries(image).map(([name, value]) => [name, attributeOf(value)]));

const itemOf = (image: Image | undefined): Record<string, unknown> | undefined => (image ? unmarshall(imageOf(image)) : undefined);

/** The change a stream record reports, its images as plain items (binary attributes as Uint8Array). */
export const changeOf = (record: DynamoDBRecord): StreamChange => {
  const stream = record.dynamodb ?? {};
  if (!record.eventName) throw new Error(`stream record ${record.eventID ?? '?'} has no eventName`);
  const newImage = itemOf(stream.NewImage);
  const oldImage = itemOf(stream.OldImage);
  return {
    eventName: record.eventName,
    sequenceNumber: stream.SequenceNumber ?? '',
    keys: itemOf(stream.Keys) ?? {},
    ...(newImage ? { newImage } : {}),
    ...(oldImage ? { oldImage } : {}),
  };
};

/**
 * The tenant a change belongs to: the item's own `tenantId`, or the tenant of its `TENANT#<id>`
 * partition or record shard `REC#<id>#<shard>` (consent records keep theirs only in the key).
 * Undefined for items of no tenant.
 */
export const tenantOfChange = (change: StreamChange): string | undefined => {
  const image = change.newImage ?? change.oldImage ?? change.keys;
  if (typeof image.tenantId === 'string') return image.tenantId;
  return consentKeys.tenantOfRecordPartition(String(image.PK ?? change.keys.PK));
};
