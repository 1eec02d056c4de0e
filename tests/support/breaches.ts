import { QueryCommand } from '../../shared/db/commands';
import { db, tableName } from '../../shared/db/client';
import type { Call } from './api';
import { waitFor } from './receiver';

const hourMs = 3_600_000;

/** A complete breach body, aware `hoursAgo` hours ago, affecting everyone unless `affected` says otherwise. */
export const breachBody = (overrides: Record<string, unknown> = {}, hoursAgo = 1) => ({
  title: 'Order database exposed',
  awareAt: new Date(Date.now() - hoursAgo * hourMs).toISOString(),
  nature: 'A misconfigured storage bucket exposed order records to the internet.',
  extent: 'Names, email addresses and delivery addresses of customers.',
  location: 'Order service, ap-south-1',
  likelyImpact: 'Phishing mails that use order details.',
  dataCategories: ['email', 'address'],
  affected: { scope: 'ALL' },
  ...overrides,
});

export const intimationBody = (overrides: Record<string, unknown> = {}) => ({
  whatHappened: 'Some of your order details (name, email and delivery address) could be read by others for a few hours.',
  consequences: 'Someone may send you mails that pretend to be from us.',
  mitigation: 'We closed the bucket and rotated the keys within an hour.',
  safetySteps: 'Do not open links in mails that ask for your password.',
  contact: 'Data Protection Officer, dpo@shop.example, +91 80 0000 0000',
  ...overrides,
});

export const createBreach = async (call: Call, token: string, body: Record<string, unknown>) => {
  const response = await call('POST', '/api/v1/breaches', { token, body });
  if (response.status !== 201) throw new Error(`breach: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data as { breachId: string; [key: string]: any };
};

export const getBreach = async (call: Call, token: string, breachId: string) => (await call('GET', `/api/v1/breaches/${breachId}`, { token })).body.data;

/** Starts an intimation and waits until its run is DONE; returns the breach then. */
export const intimate = async (call: Call, token: string, breachId: string, body: Record<string, unknown> = intimationBody(), timeoutMs = 30_000) => {
  const started = await call('POST', `/api/v1/breaches/${breachId}/principal-intimation`, { token, body });
  if (started.status !== 202) throw new Error(`intimation: ${started.status} ${JSON.stringify(started.body)}`);
  return waitFor(async () => {
    const breach = await getBreach(call, token, breachId);
    return breach.intimation.status === 'DONE' ? breach : undefined;
  }, timeoutMs);
};

/** The tenant's outbox events of one type (the items the stream hands to webhooks), read from its partition. */
export const outboxEvents = async (tenantId: string, type: string) => {
  const events: { id: string; type: string; data: Record<string, any> }[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)', ExpressionAttributeValues: { ':pk': `TENANT#${tenantId}`, ':prefix': 'OUTBOX#evt_' }, ExclusiveStartKey: startKey, ConsistentRead: true }),
    );
    for (const item of page.Items ?? []) if ((item.event as { type: string }).type === type) events.push(item.event as (typeof events)[number]);
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return events;
};
