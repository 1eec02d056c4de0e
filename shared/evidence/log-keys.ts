/**
 * Keys of a tenant's evidence log. The head, the sequenced batches and the checkpoints share the
 * partition `LOG#<tenantId>` (apart from the tenant's records, so appending to the log never
 * competes with recording consents); the hash tiles have a partition of their own, and the id→leaf
 * map one per 256 ms of entry ids, so that at 10,000 consents a second no key takes more than about
 * 700 write units a second (docs/data-model.md: The evidence log at 10,000 consents a second).
 *
 * Access patterns:
 * - head (checkpoint, tiles' size, marks) GetItem LOG#<tid> / HEAD                   (1 read per stream batch of the tenant)
 * - the latest batch (the log's size,
 *   root and right edge after it) ......... Query   LOG#<tid>, SK ≤ SEQ#~, descending, Limit 1 (1 read per batch)
 * - sequenced batches in order ........... Query   LOG#<tid>, SK between SEQ#<from> and SEQ#<to> (49 bytes per entry)
 * - append a batch ....................... Put     LOG#<tid> / SEQ#<start>, if absent: the batch's positions are taken
 * - hash tiles ........................... BatchGet LOG#<tid>#TILE / TILE#<level>/<index> (256 hashes each; and
 *                                          LOG#<tid> / TILE#… for tiles written before this layout)
 * - entry id to leaf index ............... Query   LOG#<tid>#MAP#<first 10 hex of the id> (one fragment per attempt at a batch that
 *                                          held ids of those 256 ms; and LOG#<tid> / MAP#<bucket> before this layout)
 * - signed checkpoints by size ........... Query   LOG#<tid>, SK between CKPT#<from> and CKPT#<to>
 * - tenants with an unsigned tree ........ Query   GSI1 LOG#UNSIGNED                (sparse: the head while its tree has grown past its checkpoint)
 * - a parked tenant's marker .............. GetItem SK=PARKED                       (the head carries `parked` while it exists)
 * - its parked entries, in stream order ... Query   SK begins_with PARKED#           (only while parked: a failure, then its retry)
 * - parked tenants ........................ Query   GSI1 LOG#PARKED                  (sparse: set by parking, cleared once its entries are in)
 * - a checkpoint asked for ................ Put     LOG#<tid>#REQUEST / <time>#<id>  (an evidence pack's; read only by the stream, removed by TTL)
 */
const padded = (n: number) => String(n).padStart(12, '0');
const partition = (tenantId: string) => `LOG#${tenantId}`;
const tilePartition = (tenantId: string) => `LOG#${tenantId}#TILE`;
const mapPartition = (tenantId: string, bucket: string) => `LOG#${tenantId}#MAP#${bucket}`;
const requestPartition = (tenantId: string) => `LOG#${tenantId}#REQUEST`;

export const logKeys = {
  partition,
  head: (tenantId: string) => ({ PK: partition(tenantId), SK: 'HEAD' }),
  batch: (tenantId: string, start: number) => ({ PK: partition(tenantId), SK: `SEQ#${padded(start)}` }),
  batchPosition: (start: number) => `SEQ#${padded(start)}`,
  batchPrefix: 'SEQ#',
  tile: (tenantId: string, name: string) => ({ PK: tilePartition(tenantId), SK: `TILE#${name}` }),
  /** Where tiles were written before they had a partition of their own. */
  legacyTile: (tenantId: string, name: string) => ({ PK: partition(tenantId), SK: `TILE#${name}` }),
  /**
   * The map fragment a batch wrote for its ids of one 256 ms bucket. `writer` tells apart the
   * fragments of sequencers that raced for one start: each keeps its own, and only the one whose
   * batch took the start names the entries found there.
   */
  mapFragment: (tenantId: string, bucket: string, start: number, writer: string) => ({ PK: mapPartition(tenantId, bucket), SK: `${padded(start)}#${writer}` }),
  mapPartition,
  /** The one map item of a bucket, before fragments: one attribute per id. */
  legacyMap: (tenantId: string, bucket: string) => ({ PK: partition(tenantId), SK: `MAP#${bucket}` }),
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
  /** A request for a checkpoint (checkpoint-request.ts): a partition of its own, so no query of the log's partition ever meets one. */
  checkpointRequest: (tenantId: string, at: string) => ({ PK: requestPartition(tenantId), SK: at }),
};

/** The map bucket of an entry id: its first 40 bits (for UUIDv7, time in 256 ms steps). */
export const mapBucketOf = (id: string): string => id.replaceAll('-', '').slice(0, 10);

/** Entry ids as attribute names of a legacy map item (prefixed: names must not look like numbers). */
export const mapAttributeOf = (id: string): string => `e${id.replaceAll('-', '')}`;
