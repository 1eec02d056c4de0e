import type { StreamChange } from '../stream/change';
import type { StreamConsumer } from '../stream/consumer';
import { documentItemType } from './documents';
import { entryOf, withdrawalItemType, type LogEntry } from './entries';
import { recordItemType } from '../consent/record-item';
import { clock } from '../clock';
import { checkpointDue, checkpointRequestType } from './checkpoint-request';
import { signOrReport } from './checkpointer';
import { readLog } from './log-store';
import { parkEntries } from './parked';
import { sequenceEntries } from './sequencer';

/** New records, withdrawals and logged documents, by tenant, in stream order. */
const entriesByTenant = (changes: StreamChange[]): Map<string, LogEntry[]> => {
  const byTenant = new Map<string, LogEntry[]>();
  for (const change of changes) {
    const entry = change.newImage && entryOf(change.newImage);
    if (!entry) continue;
    const entries = byTenant.get(entry.tenantId);
    if (entries) entries.push(entry);
    else byTenant.set(entry.tenantId, [entry]);
  }
  return byTenant;
};

/**
 * Appends a tenant's new entries to its log (integrating them as it goes) and signs a checkpoint if
 * one is due. A parked tenant's entries queue behind the ones parked before (parked.ts), so its log
 * takes them in order once the retry gets through. A checkpoint that cannot be signed is reported
 * and left to the checkpointer: the entries are in the log either way. One read of the head and
 * the latest batch serves the parked check, the append and the checkpoint's timing.
 */
const appendToLog = async (tenantId: string, entries: LogEntry[]): Promise<void> => {
  const read = await readLog(tenantId);
  if (read.head.parked) {
    await parkEntries(tenantId, entries, 'behind entries parked earlier');
    return;
  }
  await sequenceEntries(tenantId, entries, read);
  if (checkpointDue(read.head, clock.now())) await signOrReport(tenantId);
};

const reasonOf = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

/** Tenants of the batch's checkpoint requests (checkpoint-request.ts) that have no new entries in it (appending signs those when due anyway). */
const requestedOnly = (changes: StreamChange[], appending: ReadonlyMap<string, unknown>): Set<string> =>
  new Set(changes.filter((change) => change.newImage?.type === checkpointRequestType).map((change) => String(change.newImage!.tenantId)).filter((tenantId) => !appending.has(tenantId)));

/**
 * The stream-driven sequencer: each batch of the table's stream appends its tenants' new records,
 * withdrawals and logged documents to their logs (in parallel across tenants), integrates them into
 * the trees and signs a checkpoint when the tenant's last one is old enough (checkpointer.ts; the
 * scheduled checkpointer signs the rest). A checkpoint an evidence pack asked for is signed the same
 * way, if one is due (signOrReport reports a failure and never throws: the pack then waits its bound
 * out). A replayed batch finds its entries already placed and adds nothing. A tenant whose log
 * fails is parked, never skipped, and never holds up another tenant.
 */
export const evidenceLogConsumer: StreamConsumer = {
  name: 'evidence log',
  itemTypes: [recordItemType, withdrawalItemType, documentItemType, checkpointRequestType],
  eventNames: ['INSERT'],
  handle: async (changes) => {
    const byTenant = entriesByTenant(changes);
    await Promise.all([
      ...[...byTenant].map(([tenantId, entries]) => appendToLog(tenantId, entries)),
      ...[...requestedOnly(changes, byTenant)].map((tenantId) => signOrReport(tenantId)),
    ]);
  },
  park: async (tenantId, changes, error) => {
    const entries = entriesByTenant(changes).get(tenantId) ?? [];
    if (entries.length > 0) await parkEntries(tenantId, entries, reasonOf(error));
  },
};
