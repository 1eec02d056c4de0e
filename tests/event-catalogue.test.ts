import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { principalHash } from '../shared/consent/principal';
import { emittedEvents, eventDataSchema, subscribableEvents, type EmittedEventType } from '../shared/events/catalogue';
import { deliveryHeaders, eventEnvelope } from '../shared/events/schemas';
import { verifyWebhookSignature } from '../shared/webhooks/signature';
import { newTenant, useApi } from './support/api';
import { breachBody, intimationBody } from './support/breaches';
import { publishedNotice, recordConsent } from './support/consent';
import { startReceiver, waitFor, type Received } from './support/receiver';
import { manualSweeps, startTestWorkers } from './support/workers';
import { mailsTo } from './support/mail';
import { offsetClock, resetClock, setClock } from '../shared/clock';
import { sweepChildren } from '../shared/children/sweeper';
import { lastActivityOf } from '../shared/retention/activity';
import { sweepRetentionDue } from '../shared/retention/sweeper';

/**
 * The catalogue checked against what the service really sends: every emitted type is produced
 * through its real code path (the API, the table stream, the outbox, the webhook queue) and every
 * delivery a loopback receiver gets must parse with the catalogue's envelope for its type. The
 * samples in asyncapi.test.ts check the schemas; this checks the emitters against them.
 */

const { call } = useApi();
const secret = 'whsec_catalogue_0123456789';
let workers: ReturnType<typeof startTestWorkers>;

beforeAll(() => {
  workers = startTestWorkers();
});
afterAll(async () => {
  await workers.stop();
});

const envelopeFields = ['id', 'type', 'timestamp', 'tenantId', 'data'];

/** A value of another JSON type than `value`, which no field of the catalogue accepts in its place. */
const wrongTyped = (value: unknown): unknown => (typeof value === 'string' || value === null ? 42 : `not a ${typeof value}`);

/** Parses one real delivery by its type's schemas; returns the envelope. */
const parseDelivery = (request: Received) => {
  const type = request.headers['x-service-event'] as EmittedEventType;
  expect(emittedEvents).toContain(type);
  expect(verifyWebhookSignature(request.rawBody, request.headers['x-service-signature'] as string, secret)).toBe(true);
  const headers = {
    'X-Service-Signature': request.headers['x-service-signature'],
    'X-Service-Timestamp': request.headers['x-service-timestamp'],
    'X-Service-Event': request.headers['x-service-event'],
  };
  expect(deliveryHeaders(type).safeParse(headers).error).toBeUndefined();
  const body = JSON.parse(request.rawBody.toString('utf8')) as Record<string, unknown>;
  const parsed = eventEnvelope(type).safeParse(body);
  expect(parsed.error, type).toBeUndefined();
  // Exactly the documented fields: a field the emitter adds would be missing from the AsyncAPI document.
  expect(Object.keys(body).sort(), type).toEqual([...envelopeFields].sort());
  const data = body.data as Record<string, unknown>;
  const documented = Object.keys(eventDataSchema(type).shape);
  expect(Object.keys(data).sort(), type).toEqual([...documented].sort());
  // And the schema is strict enough to matter: this very payload fails without any one field or with it mistyped.
  for (const field of envelopeFields) {
    const { [field]: _dropped, ...missing } = body;
    expect(eventEnvelope(type).safeParse(missing).success, `${type} without ${field}`).toBe(false);
    expect(eventEnvelope(type).safeParse({ ...body, [field]: wrongTyped(body[field]) }).success, `${type} with ${field} mistyped`).toBe(false);
  }
  for (const field of documented) {
    const { [field]: _dropped, ...missing } = data;
    expect(eventEnvelope(type).safeParse({ ...body, data: missing }).success, `${type} without data.${field}`).toBe(false);
    expect(eventEnvelope(type).safeParse({ ...body, data: { ...data, [field]: wrongTyped(data[field]) } }).success, `${type} with data.${field} mistyped`).toBe(false);
  }
  return parsed.data!;
};

describe('emitted events against the catalogue', () => {
  it('delivers every emitted type, from its real code path, in the shape the catalogue documents', async () => {
    const tenant = await newTenant(call);
    // The sweeps below run on a moved clock, here only: the file's own sweepers leave this tenant alone.
    manualSweeps.add(tenant.tenantId);
    const receiver = await startReceiver(() => ({ status: 200 }));
    try {
      const created = await call('POST', '/api/v1/webhooks', { token: tenant.token, body: { label: 'Catalogue', url: receiver.url, secret, events: subscribableEvents } });
      expect(created.status).toBe(201);
      const webhookId = created.body.data.id as string;

      // notice.published: the publish transaction's outbox item.
      const { noticeId, required, optional } = await publishedNotice(call, tenant.token);
      // consent.recorded: from the table's stream, after the single PutItem of the record.
      const email = `catalogue-${Math.random().toString(36).slice(2)}@example.com`;
      const recorded = await recordConsent(call, tenant.token, { noticeId, dataPrincipalIdentifier: email, consentGiven: { [required]: true, [optional]: true } });
      expect(recorded.status).toBe(201);
      const recordId = recorded.body.data.consentRecordId as string;
      // consent.withdrawn twice: a partial one through the portal, then the rest from the dashboard.
      const link = await call('POST', '/api/v1/consent/withdrawal-token', { token: tenant.token, body: { dataPrincipalIdentifier: email, noticeId } });
      expect(link.status).toBe(201);
      const partial = await call('POST', `/api/v1/consent/portal/${link.body.data.token}/withdraw`, { body: { withdrawAll: false, purposeIds: [optional], reason: 'No more marketing' } });
      expect(partial.status).toBe(200);
      const full = await call('POST', '/api/v1/consent/withdraw', { token: tenant.token, body: { dataPrincipalIdentifier: email, noticeId } });
      expect(full.status).toBe(200);
      // rights.submitted and rights.resolved: a grievance the team logged, then answered.
      const grievance = await call('POST', '/api/v1/rights/requests', { token: tenant.token, body: { type: 'GRIEVANCE', dataPrincipalIdentifier: email, details: 'Too many mails', channel: 'PHONE' } });
      expect(grievance.status).toBe(201);
      const requestId = grievance.body.data.requestId as string;
      const answered = await call('POST', `/api/v1/rights/requests/${requestId}/resolve`, { token: tenant.token, body: { outcome: 'FULFILLED', response: 'We have stopped the mails.' } });
      expect(answered.status).toBe(200);
      // webhook.test: the test endpoint's direct enqueue.
      expect((await call('POST', `/api/v1/webhooks/${webhookId}/test`, { token: tenant.token })).status).toBe(200);

      // breach.created and breach.reported: the register's transactions; breach.principals: the intimation worker's batch.
      const listed = 'e'.repeat(64);
      const breach = await call('POST', '/api/v1/breaches', { token: tenant.token, body: breachBody({ affected: { scope: 'PRINCIPALS', principalHashes: [listed] } }) });
      expect(breach.status).toBe(201);
      const breachId = breach.body.data.breachId as string;
      expect((await call('POST', `/api/v1/breaches/${breachId}/board-intimation`, { token: tenant.token, body: {} })).status).toBe(201);
      expect((await call('POST', `/api/v1/breaches/${breachId}/principal-intimation`, { token: tenant.token, body: intimationBody() })).status).toBe(202);

      // consent.guardian_*: three children's decisions (the dashboard route), approved, refused and
      // left to expire; consent.majority_reached: the approved child comes of age. The sweeps run here, on a clock 8 days on.
      expect((await call('PUT', '/api/v1/children/settings', { token: tenant.token, body: { audience: 'MIXED' } })).status).toBe(200);
      const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
      const linkOf = async (child: string) => {
        const parent = `parent-of-${child}`;
        const made = await recordConsent(call, tenant.token, { noticeId, dataPrincipalIdentifier: child, consentGiven: { [required]: true }, principalStatus: 'CHILD', guardianEmail: parent, majorityAt: tomorrow });
        expect(made.status).toBe(201);
        return waitFor(async () => {
          for (const mail of await mailsTo(parent)) {
            const link = /\/portal\/g\/(g[0-9a-f]{32}[A-Za-z0-9_-]{43})/.exec(mail.body.text ?? '')?.[1];
            if (link) return link;
          }
          return undefined;
        }, 30_000);
      };
      const [approveLink, refuseLink] = [await linkOf(`kid-a-${email}`), await linkOf(`kid-b-${email}`)];
      await linkOf(`kid-c-${email}`);
      expect((await call('POST', `/api/v1/children/guardian/${approveLink}/approve`, { body: { method: 'SELF_DECLARED', name: 'A Parent', birthYear: 1980, declaration: true } })).status).toBe(200);
      expect((await call('POST', `/api/v1/children/guardian/${refuseLink}/refuse`, { body: {} })).status).toBe(200);
      setClock(offsetClock(8 * 86_400_000));
      try {
        // One expiry, and the three records leaving the majority index (only the approved one is announced).
        expect(await sweepChildren({ accept: (id) => id === tenant.tenantId })).toBe(4);
      } finally {
        resetClock();
      }

      // Retention: the required purpose is kept a day from consent, with an hour's notice: a notice, then the lapse.
      expect((await call('PUT', `/api/v1/purposes/${required}`, { token: tenant.token, body: { retention: { period: 'P1D', from: 'CONSENT' } } })).status).toBe(200);
      expect((await call('PUT', '/api/v1/retention/settings', { token: tenant.token, body: { noticeHours: 1 } })).status).toBe(200);
      await waitFor(() => lastActivityOf(tenant.tenantId, principalHash(email)).then((at) => at ?? undefined));
      const day = 86_400_000;
      for (const offset of [day - 30 * 60_000, day + 2 * 3_600_000]) {
        setClock(offsetClock(offset));
        try {
          await sweepRetentionDue({ accept: (id) => id === tenant.tenantId });
        } finally {
          resetClock();
        }
      }

      const expected: Record<EmittedEventType, number> = {
        'notice.published': 1,
        'consent.guardian_requested': 3,
        'consent.guardian_verified': 1,
        'consent.guardian_refused': 1,
        'consent.guardian_expired': 1,
        'consent.majority_reached': 1,
        'consent.recorded': 2,
        'consent.withdrawn': 2,
        'rights.submitted': 1,
        'rights.resolved': 1,
        'webhook.test': 1,
        'breach.created': 1,
        'breach.reported': 1,
        'breach.principals': 1,
        // log.checkpoint: the checkpointer's outbox item, once the record is logged and signed.
        'log.checkpoint': 1,
        'retention.notice_due': 1,
        'retention.erasure_due': 1,
      };
      // Deliveries are at least once: count distinct event ids.
      const byType = await waitFor(() => {
        const ids = new Map<string, Set<string>>();
        for (const entry of receiver.received) {
          const { id, type } = JSON.parse(entry.rawBody.toString('utf8'));
          ids.set(type, (ids.get(type) ?? new Set()).add(id));
        }
        return emittedEvents.every((type) => (ids.get(type)?.size ?? 0) >= expected[type]) ? ids : undefined;
      }, 60_000);
      expect([...byType.keys()].sort()).toEqual([...emittedEvents].sort());

      const envelopes = receiver.received.map(parseDelivery);
      for (const envelope of envelopes) expect(envelope.tenantId).toBe(tenant.tenantId);
      const dataOf = (type: EmittedEventType) => envelopes.filter((envelope) => envelope.type === type).map((envelope) => envelope.data);
      expect(dataOf('notice.published')).toContainEqual(expect.objectContaining({ noticeId, versionNumber: 1, materialChangeDetected: false }));
      expect(dataOf('consent.recorded')).toContainEqual(
        expect.objectContaining({ consentRecordId: recordId, consents: { [required]: true, [optional]: true }, noticeId, noticeVersionId: `${noticeId}:1`, noticeVersionNumber: 1 }),
      );
      expect(dataOf('consent.withdrawn')).toContainEqual(
        expect.objectContaining({ withdrawalId: partial.body.data.withdrawalId, consentRecordId: recordId, isFullWithdrawal: false, purposeIds: [optional], withdrawalMethod: 'WEB_PORTAL', withdrawalReason: 'No more marketing' }),
      );
      expect(dataOf('consent.withdrawn')).toContainEqual(
        expect.objectContaining({ withdrawalId: full.body.data.withdrawalId, consentRecordId: recordId, isFullWithdrawal: true, purposeIds: [], withdrawalMethod: 'DASHBOARD' }),
      );
      expect(dataOf('rights.submitted')).toContainEqual(
        expect.objectContaining({ requestId, type: 'GRIEVANCE', channel: 'PHONE', principalHash: principalHash(email), assets: expect.any(Array) }),
      );
      expect(dataOf('rights.resolved')).toContainEqual(expect.objectContaining({ requestId, type: 'GRIEVANCE', outcome: 'FULFILLED' }));
      expect(dataOf('webhook.test')).toContainEqual(expect.objectContaining({ message: expect.stringContaining('Catalogue') }));
      expect(dataOf('breach.created')).toContainEqual(expect.objectContaining({ breachId, affectedScope: 'PRINCIPALS', occurredAt: null }));
      expect(dataOf('breach.reported')).toContainEqual({ breachId, stage: 'INTIMATION', filedAt: expect.any(String), late: false });
      expect(dataOf('breach.principals')).toContainEqual(expect.objectContaining({ breachId, page: 0, principalHashes: [listed] }));
      expect(dataOf('log.checkpoint')).toContainEqual(expect.objectContaining({ treeSize: expect.any(Number), note: expect.stringContaining(`consent-service/log/${tenant.tenantId}\n`) }));
    } finally {
      await receiver.close();
    }
    // Every emitter in one flow (children, breaches, retention, the log): about 20 s on a quiet
    // machine, and several times that on a loaded one, within the minute its deliveries may take.
  }, 180_000);
});
