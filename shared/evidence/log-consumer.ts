import type { StreamChange } from '../stream/change';
import type { StreamConsumer } from '../stream/consumers';
import { documentItemType } from './documents';
import { entryOf, withdrawalItemType, type LogEntry } from './entries';
import { recordItemType } from '../consent/record-item';
import { signCheckpointFor } from './checkpointer';
import { integrate } from './integration';
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
 * The stream-driven sequencer: each batch of the table's stream appends its tenants' new records
 * and withdrawals to their logs (in parallel across tenants), integrates them into the trees and
 * signs a checkpoint when the tenant's last one is old enough (checkpointer.ts; the scheduled
 * checkpointer signs the rest). A replayed batch finds its entries already placed and adds nothing.
 */
export const evidenceLogConsumer: StreamConsumer = {
  name: 'evidence log',
  itemTypes: [recordItemType, withdrawalItemType, documentItemType],
  eventNames: ['INSERT'],
  handle: async (changes) => {
    await Promise.all(
      [...entriesByTenant(changes)].map(async ([tenantId, entries]) => {
        await sequenceEntries(tenantId, entries);
        await integrate(tenantId);
        await signCheckpointFor(tenantId);
      }),
    );
  },
};
