/**
 * Keys of a tenant's evidence log, all in the partition `LOG#<tenantId>` (apart from the
 * tenant's records, so appending to the log never competes with recording consents).
 *
 * Access patterns:
 * - head (sizes, root, latest checkpoint) GetItem SK=HEAD                         (1 read; every sequencing and integration is conditional on it)
 * - sequenced batches in order ........... Query   SK between SEQ#<from> and SEQ#<to> (49 bytes per entry: id, kind, hash)
 * - hash tiles ........................... BatchGet SK=TILE#<level>/<index>        (256 hashes each; a proof reads one per 8 levels)
 * - entry id to leaf index ............... GetItem SK=MAP#<first 10 hex of the id> (ids are UUIDv7, so one item per ~256 ms of entries)
 * - signed checkpoints by size ........... Query   SK between CKPT#<from> and CKPT#<to>
 * - tenants with an unsigned tree ........ Query   GSI1 LOG#UNSIGNED                (sparse: set by integration, cleared by signing)
 * - a parked tenant's marker .............. GetItem SK=PARKED                       (1 read per tenant per stream batch: is its log parked?)
 * - its parked entries, in stream order ... Query   SK begins_with PARKED#           (only while parked: a failure, then its retry)
 * - parked tenants ........................ Query   GSI1 LOG#PARKED                  (sparse: set by parking, cleared once its entries are in)
 */
const padded = (n: number) => String(n).padStart(12, '0');
const partition = (tenantId: string) => `LOG#${tenantId}`;

export const logKeys = {
  partition,
  head: (tenantId: string) => ({ PK: partition(tenantId), SK: 'HEAD' }),
  batch: (tenantId: string, start: number) => ({ PK: partition(tenantId), SK: `SEQ#${padded(start)}` }),
  batchPosition: (start: number) => `SEQ#${padded(start)}`,
  tile: (tenantId: string, name: string) => ({ PK: partition(tenantId), SK: `TILE#${name}` }),
  map: (tenantId: string, bucket: string) => ({ PK: partition(tenantId), SK: `MAP#${bucket}` }),
  checkpoint: (tenantId: string, size: number) => ({ PK: partition(tenantId), SK: `CKPT#${padded(size)}` }),
  checkpointPosition: (size: number) => `CKPT#${padded(size)}`,
  unsigned: (tenantId: string) => ({ GSI1PK: 'LOG#UNSIGNED', GSI1SK: tenantId }),
  unsignedPartition: 'LOG#UNSIGNED',
  parked: (tenantId: string) => ({ PK: partition(tenantId), SK: 'PARKED' }),
  /** `at` orders a tenant's parked entries: the time they were parked and a counter. */
  parkedEntries: (tenantId: string, at: string) => ({ PK: partition(tenantId), SK: `PARKED#${at}` }),
  parkedEntriesPrefix: 'PARKED#',
  parkedIndex: (tenantId: string) => ({ GSI1PK: 'LOG#PARKED', GSI1SK: tenantId }),
  parkedPartition: 'LOG#PARKED',
};

/** The map item an entry's leaf index is kept in: its id's first 40 bits (for UUIDv7, time in 256 ms steps). */
export const mapBucketOf = (id: string): string => id.replaceAll('-', '').slice(0, 10);

/** Entry ids become attribute names of their map item (prefixed: names must not look like numbers). */
export const mapAttributeOf = (id: string): string => `e${id.replaceAll('-', '')}`;
