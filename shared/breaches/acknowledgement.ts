import { nowIso } from '../clock';
import { tableName } from '../db/client';
import { tryTransaction, type NamedItem } from '../db/transact';
import { documentPut } from '../evidence/documents';
import { describeError, log } from '../log';
import type { StreamChange } from '../stream/change';
import type { StreamConsumer } from '../stream/consumer';
import { breachKeys } from './keys';
import { updateParts } from './store';

/**
 * A principal with no known email is handed to the tenant's systems in a `breach.principals`
 * event; she counts as reached only once a webhook of the tenant acknowledged that page (answered
 * 2xx), because until then nobody is known to have told her. This consumer of the table's stream
 * sees each delivery turn SUCCESS and moves the page's principals from `awaitingTenant` to
 * `viaTenant`, once per page however many webhooks receive it, with a logged document of which
 * delivery acknowledged it (the detailed report's item (vi) rests on it).
 *
 * Both counters are additions, so an acknowledgement arriving before its batch's own counters
 * (the event leaves through the outbox as the batch completes) still adds up.
 */

interface PrincipalsPage {
  tenantId: string;
  breachId: string;
  runId: string;
  page: number;
  count: number;
}

/** The page a delivered `breach.principals` event names, from the signed payload the delivery kept. */
export const acknowledgedPage = (payload: string): PrincipalsPage | undefined => {
  try {
    const envelope = JSON.parse(payload) as { type?: unknown; tenantId?: unknown; data?: { breachId?: unknown; runId?: unknown; page?: unknown; principalHashes?: unknown } };
    const data = envelope.data;
    if (envelope.type !== 'breach.principals' || typeof envelope.tenantId !== 'string' || !data) return undefined;
    if (typeof data.breachId !== 'string' || typeof data.runId !== 'string' || typeof data.page !== 'number' || !Array.isArray(data.principalHashes)) return undefined;
    return { tenantId: envelope.tenantId, breachId: data.breachId, runId: data.runId, page: data.page, count: data.principalHashes.length };
  } catch {
    return undefined;
  }
};

/** The page's acknowledgement, once: its condition fails for a second delivery of the same page. */
const pageAcknowledged = (page: PrincipalsPage, at: string, delivery: { webhookId: string; deliveryId: string }): NamedItem => ({
  name: 'page acknowledgement',
  item: {
    Update: {
      TableName: tableName(),
      Key: breachKeys.page(page.tenantId, page.breachId, page.runId, page.page),
      UpdateExpression: 'SET acknowledgedAt = :at, acknowledgedBy = :by',
      ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(acknowledgedAt)',
      ExpressionAttributeValues: { ':at': at, ':by': delivery },
    },
  },
});

const counted = (page: PrincipalsPage): NamedItem => ({
  name: 'breach',
  item: { Update: { TableName: tableName(), Key: breachKeys.breach(page.tenantId, page.breachId), ...updateParts({ add: { 'progress.viaTenant': page.count, 'progress.awaitingTenant': -page.count } }), ConditionExpression: 'attribute_exists(PK)' } },
});

export const acknowledgePage = async (page: PrincipalsPage, delivery: { webhookId: string; deliveryId: string; deliveredAt: string | null }): Promise<void> => {
  const at = nowIso();
  const document = documentPut({
    tenantId: page.tenantId,
    documentType: 'breach.principals-acknowledged',
    subjectId: breachKeys.batchSubject(page.breachId),
    at,
    content: { runId: page.runId, page: page.page, principals: page.count, webhookId: delivery.webhookId, deliveryId: delivery.deliveryId, deliveredAt: delivery.deliveredAt },
  });
  for (let attempt = 0; attempt < 12; attempt += 1) {
    const outcome = await tryTransaction([pageAcknowledged(page, at, delivery), counted(page), document.item]);
    // Acknowledged already (another webhook, a stream record seen again), or a page of no breach: nothing to count.
    if (outcome !== 'contended') return;
    await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 40 * (attempt + 1)));
  }
  throw new Error('the breach kept being changed by others; the stream will bring the acknowledgement again');
};

const delivered = (change: StreamChange) => change.newImage?.status === 'SUCCESS' && change.oldImage?.status !== 'SUCCESS';

export const breachAcknowledgementConsumer: StreamConsumer = {
  name: 'breach acknowledgements',
  itemTypes: ['WebhookDelivery'],
  eventNames: ['INSERT', 'MODIFY'],
  handle: async (changes) => {
    for (const change of changes.filter(delivered)) {
      const image = change.newImage!;
      const page = acknowledgedPage(String(image.payload ?? ''));
      if (!page) continue;
      const [, webhookId = ''] = /^HOOK#(.+)#[0-9a-f]+$/.exec(String(image.PK)) ?? [];
      const deliveryId = String(image.deliveryId ?? String(image.SK).split('#').at(-1));
      try {
        await acknowledgePage(page, { webhookId, deliveryId, deliveredAt: typeof image.deliveredAt === 'string' ? image.deliveredAt : null });
      } catch (error) {
        log.error('a breach.principals acknowledgement could not be counted; the batch comes again', { breachId: page.breachId, ...describeError(error) });
        throw error;
      }
    }
  },
};
