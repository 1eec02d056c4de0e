import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { asyncApiDocument } from '../shared/events/asyncapi';
import { emittedEvents, eventCatalogue, eventDataSchema, notYetEmittedEvents, subscribableEvents, type EmittedEventType, type EventData } from '../shared/events/catalogue';
import { newEvent } from '../shared/events/outbox';
import { anyEventEnvelope, deliveryHeaders, eventEnvelope } from '../shared/events/schemas';

// Structural checks only: no AsyncAPI validator is installed (see the report for one to add).
const doc = asyncApiDocument() as any;
const purposeA = '3f0c6f2e-8a51-4b0e-9d1a-6a8b2c4d5e6f';
const purposeB = '9b2d7c1a-4e3f-4a6b-8c5d-1e2f3a4b5c6d';
const noticeId = '5d6e7f80-1a2b-4c3d-8e4f-5a6b7c8d9e0f';

/** Shaped like what recording.ts, withdrawal.ts, publish.ts, the test endpoint and the checkpointer emit. */
const samples: { [T in EmittedEventType]: EventData<T> } = {
  'consent.recorded': {
    consentRecordId: '01934f6a-2b3c-7d4e-8f5a-6b7c8d9e0f1a',
    dataPrincipalHash: 'a'.repeat(64),
    consents: { [purposeA]: true, [purposeB]: false },
    noticeId,
    noticeVersionId: `${noticeId}:3`,
    noticeVersionNumber: 3,
    recordedAt: '2025-06-01T10:15:30.123Z',
  },
  'consent.withdrawn': {
    withdrawalId: '7c8d9e0f-1a2b-4c3d-9e4f-5a6b7c8d9e0f',
    consentRecordId: '01934f6a-2b3c-7d4e-8f5a-6b7c8d9e0f1a',
    dataPrincipalHash: 'b'.repeat(64),
    dataPrincipalEmail: null,
    isFullWithdrawal: false,
    purposeIds: [purposeB],
    withdrawalMethod: 'PUBLIC_API',
    withdrawalReason: null,
    withdrawnAt: '2025-06-02T08:00:00.000Z',
    attribution: { level: 'CLAIMED', method: 'PUBLIC_EMAIL_CLAIM', attributedBy: 'key:7c8d9e0f-1a2b-4c3d-9e4f-5a6b7c8d9e10', origin: 'https://shop.example', ipHash: 'c'.repeat(64) },
  },
  'notice.published': {
    noticeId,
    lineageId: '0a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d',
    versionNumber: 2,
    materialChangeDetected: true,
    publishedAt: '2025-06-03T12:00:00.000Z',
  },
  'rights.submitted': {
    requestId: '01934f6a-2b3c-7d4e-8f5a-6b7c8d9e0f2b',
    type: 'ERASURE',
    channel: 'WEB',
    principalHash: 'c'.repeat(64),
    submittedAt: '2025-06-05T10:00:00.000Z',
    dueAt: '2025-07-05T10:00:00.000Z',
    assets: [{ assetId: '2b3c4d5e-6f70-4a8b-9c0d-1e2f3a4b5c6d', name: 'Orders', system: 'orders database' }],
  },
  'rights.resolved': {
    requestId: '01934f6a-2b3c-7d4e-8f5a-6b7c8d9e0f2b',
    type: 'ERASURE',
    outcome: 'FULFILLED',
    principalHash: 'c'.repeat(64),
    resolvedAt: '2025-06-20T10:00:00.000Z',
  },
  'webhook.test': { message: 'This is a test event', timestamp: '2025-06-04T09:30:00.000Z' },
  'consent.guardian_requested': {
    requestId: '01934f6a-2b3c-7d4e-8f5a-6b7c8d9e0f3c',
    consentRecordId: '01934f6a-2b3c-7d4e-8f5a-6b7c8d9e0f1a',
    dataPrincipalHash: 'd'.repeat(64),
    principalStatus: 'CHILD',
    noticeId,
    requestedAt: '2025-06-01T10:15:30.123Z',
    expiresAt: '2025-06-08T10:15:30.123Z',
  },
  'consent.guardian_verified': {
    requestId: '01934f6a-2b3c-7d4e-8f5a-6b7c8d9e0f3c',
    consentRecordId: '01934f6a-2b3c-7d4e-8f5a-6b7c8d9e0f1a',
    dataPrincipalHash: 'd'.repeat(64),
    method: 'VIRTUAL_TOKEN',
    consents: { [purposeA]: true, [purposeB]: false },
    verifiedAt: '2025-06-02T10:15:30.123Z',
  },
  'consent.guardian_refused': { requestId: '01934f6a-2b3c-7d4e-8f5a-6b7c8d9e0f3c', consentRecordId: '01934f6a-2b3c-7d4e-8f5a-6b7c8d9e0f1a', dataPrincipalHash: 'd'.repeat(64), refusedAt: '2025-06-02T10:15:30.123Z' },
  'consent.guardian_expired': { requestId: '01934f6a-2b3c-7d4e-8f5a-6b7c8d9e0f3c', consentRecordId: '01934f6a-2b3c-7d4e-8f5a-6b7c8d9e0f1a', dataPrincipalHash: 'd'.repeat(64), expiredAt: '2025-06-08T10:15:31.000Z' },
  'consent.majority_reached': { consentRecordId: '01934f6a-2b3c-7d4e-8f5a-6b7c8d9e0f1a', dataPrincipalHash: 'd'.repeat(64), noticeId, majorityAt: '2031-04-02' },
  'breach.created': {
    breachId: '01934f6a-2b3c-7d4e-8f5a-6b7c8d9e0f2b',
    title: 'Order database exposed',
    awareAt: '2025-06-05T06:00:00.000Z',
    occurredAt: null,
    boardIntimationDueAt: '2025-06-05T06:00:00.000Z',
    detailedReportDueAt: '2025-06-08T06:00:00.000Z',
    affectedScope: 'NOTICES',
    dataCategories: ['email', 'address'],
  },
  'breach.reported': { breachId: '01934f6a-2b3c-7d4e-8f5a-6b7c8d9e0f2b', stage: 'INTIMATION', filedAt: '2025-06-05T08:00:00.000Z', late: false },
  'breach.principals': {
    breachId: '01934f6a-2b3c-7d4e-8f5a-6b7c8d9e0f2b',
    runId: '01934f6a-3b3c-7d4e-8f5a-6b7c8d9e0f2c',
    page: 0,
    principalHashes: ['c'.repeat(64), 'd'.repeat(64)],
  },
  'retention.notice_due': { dataPrincipalHash: 'e'.repeat(64), purposeIds: ['01934f6a-2b3c-7d4e-8f5a-6b7c8d9e0f3c'], dueAt: '2029-06-03T00:00:00.000Z', noticeSentAt: '2029-06-01T00:00:00.000Z' },
  'retention.erasure_due': { runId: '01934f6a-2b3c-7d4e-8f5a-6b7c8d9e0f4d', page: 1, pages: 1, purposeIds: ['01934f6a-2b3c-7d4e-8f5a-6b7c8d9e0f3c'], principalHashes: ['e'.repeat(64)] },
  'log.checkpoint': {
    treeSize: 42,
    rootHash: 'c'.repeat(64),
    note: 'consent-service/log/6f1e2d3c-4b5a-4c6d-8e7f-9a0b1c2d3e4f\n42\nzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMw=\n\n\u2014 consent-service-log AAAAAA==\n',
    signedAt: '2025-06-05T07:00:00.000Z',
    keyId: 'consent-service-log',
    previousTreeSize: 40,
    consistencyProof: ['d'.repeat(64), 'e'.repeat(64)],
  },
};

/** Follows a local JSON pointer such as `#/channels/x/messages/y`. */
const resolve = (ref: string): unknown => {
  if (!ref.startsWith('#/')) return undefined;
  return ref
    .slice(2)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<any>((node, key) => (node && typeof node === 'object' ? node[key] : undefined), doc);
};

const refsIn = (node: unknown): string[] => {
  if (Array.isArray(node)) return node.flatMap(refsIn);
  if (!node || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([key, value]) => (key === '$ref' && typeof value === 'string' ? [value] : refsIn(value)));
};

const deref = (node: any) => (node?.$ref ? resolve(node.$ref) : node) as any;
const messages = Object.values(doc.components.messages) as any[];

describe('AsyncAPI document', () => {
  it('is AsyncAPI 3.0.0 with info, a cached identity and an https receiver server', () => {
    expect(doc.asyncapi).toBe('3.0.0');
    expect(asyncApiDocument()).toBe(doc);
    expect(doc.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
    for (const phrase of ['At least once', 'Unordered', '2xx within 10 s', 'Redirects are not followed', '5, 10, 20 and 40 s']) {
      expect(doc.info.description).toContain(phrase);
    }
    const servers = Object.values(doc.servers) as any[];
    expect(servers).toHaveLength(1);
    expect(servers[0]).toMatchObject({ protocol: 'https', host: '{receiverHost}' });
    expect(servers[0].variables.receiverHost).toBeDefined();
  });

  it('has one channel, message and operation per emitted event type', () => {
    expect(Object.keys(doc.channels)).toHaveLength(emittedEvents.length);
    expect(Object.keys(doc.operations)).toHaveLength(emittedEvents.length);
    expect(messages.map((message) => message.name).sort()).toEqual([...emittedEvents].sort());
  });

  it('declares a parameter for every expression in a channel address', () => {
    for (const channel of Object.values(doc.channels) as any[]) {
      for (const [, name] of (channel.address as string).matchAll(/\{(\w+)\}/g)) expect(channel.parameters?.[name!]).toBeDefined();
    }
  });

  it('has send operations whose channel and messages are references into the document', () => {
    const channelTypes = new Set<string>();
    for (const operation of Object.values(doc.operations) as any[]) {
      expect(operation.action).toBe('send');
      expect(operation.channel.$ref).toMatch(/^#\/channels\/[^/]+$/);
      const channel = resolve(operation.channel.$ref) as any;
      expect(channel, operation.channel.$ref).toBeDefined();
      expect(operation.messages).toHaveLength(1);
      // AsyncAPI 3: an operation's messages must be messages of its own channel.
      expect(operation.messages[0].$ref.startsWith(`${operation.channel.$ref}/messages/`)).toBe(true);
      const message = deref(resolve(operation.messages[0].$ref));
      channelTypes.add(message.name);
    }
    expect([...channelTypes].sort()).toEqual([...emittedEvents].sort());
  });

  it("gives every message the envelope as payload, with its type's data schema", () => {
    for (const message of messages) {
      const { payload } = message;
      expect(payload.type).toBe('object');
      expect(payload.required).toEqual(expect.arrayContaining(['id', 'type', 'timestamp', 'tenantId', 'data']));
      expect(payload.properties.type.const).toBe(message.name);
      const data = deref(payload.properties.data);
      const required = Object.keys(eventDataSchema(message.name as EmittedEventType).shape);
      expect(data.required).toEqual(expect.arrayContaining(required));
    }
  });

  it('requires the three X-Service-* headers on every message', () => {
    for (const message of messages) {
      const headers = deref(message.headers);
      expect(headers.type).toBe('object');
      expect(headers.required).toEqual(expect.arrayContaining(['X-Service-Signature', 'X-Service-Timestamp', 'X-Service-Event']));
      expect(headers.properties['X-Service-Event'].const).toBe(message.name);
    }
  });

  it('resolves every $ref within the document', () => {
    const refs = refsIn(doc);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) expect(resolve(ref), ref).toBeDefined();
  });
});

describe('event schemas', () => {
  it.each(emittedEvents)('%s data parses a realistic payload', (type) => {
    expect(eventDataSchema(type).safeParse(samples[type]).error).toBeUndefined();
  });

  it.each(emittedEvents)('%s data rejects a payload missing any one required field', (type) => {
    for (const field of Object.keys(eventDataSchema(type).shape)) {
      const { [field]: _dropped, ...missing } = samples[type] as Record<string, unknown>;
      expect(eventDataSchema(type).safeParse(missing).success, field).toBe(false);
    }
  });

  it('parses the envelope newEvent builds, with headers signed as the spec says', () => {
    for (const type of emittedEvents) {
      const event = newEvent('6f1e2d3c-4b5a-4c6d-8e7f-9a0b1c2d3e4f', type, samples[type]);
      expect(eventEnvelope(type).safeParse(event).error).toBeUndefined();
      expect(anyEventEnvelope.parse(event).type).toBe(type);
      const body = JSON.stringify(event);
      const headers = {
        'X-Service-Signature': `sha256=${createHmac('sha256', 'whsec_test_secret_16+').update(body).digest('hex')}`,
        'X-Service-Timestamp': String(Date.now()),
        'X-Service-Event': type,
      };
      expect(deliveryHeaders(type).safeParse(headers).error).toBeUndefined();
    }
    expect(eventEnvelope('webhook.test').safeParse({ ...newEvent('6f1e2d3c-4b5a-4c6d-8e7f-9a0b1c2d3e4f', 'webhook.test', samples['webhook.test']), id: 'evt-1' }).success).toBe(false);
  });

  it('lists the subscribable events as a z.enum-ready tuple covering every emitted type', () => {
    const subscribable = z.enum(subscribableEvents);
    expect(subscribableEvents).toHaveLength(17);
    for (const type of emittedEvents) expect(subscribable.parse(type)).toBe(type);
    expect(subscribable.safeParse('consent.deleted').success).toBe(false);
  });

  it('derives the subscribable and emitted lists from the catalogue, and marks the ones not emitted yet', () => {
    expect(subscribableEvents).toEqual(Object.keys(eventCatalogue));
    expect(emittedEvents).toEqual(['consent.recorded', 'consent.withdrawn', 'rights.submitted', 'rights.resolved', 'breach.reported', 'notice.published', 'breach.created', 'breach.principals', 'webhook.test', 'consent.guardian_requested', 'consent.guardian_verified', 'consent.guardian_refused', 'consent.guardian_expired', 'consent.majority_reached', 'retention.notice_due', 'retention.erasure_due', 'log.checkpoint']);
    expect(notYetEmittedEvents).toEqual([]);
    for (const type of notYetEmittedEvents) {
      expect(eventCatalogue[type]).not.toHaveProperty('data');
      expect(doc.info.description).toContain(type);
      expect(messages.map((message) => message.name)).not.toContain(type);
    }
    for (const type of subscribableEvents) expect(eventCatalogue[type].description.length, type).toBeGreaterThan(10);
  });

  it('types every emitter by the catalogue: a missing, wrongly typed or undocumented field does not compile', () => {
    const tenantId = '6f1e2d3c-4b5a-4c6d-8e7f-9a0b1c2d3e4f';
    const { publishedAt: _dropped, ...withoutPublishedAt } = samples['notice.published'];
    // Each call is checked by tsc (tests are type-checked); at run time newEvent does not validate.
    // @ts-expect-error publishedAt is required
    newEvent(tenantId, 'notice.published', withoutPublishedAt);
    // @ts-expect-error versionNumber is a number
    newEvent(tenantId, 'notice.published', { ...samples['notice.published'], versionNumber: '2' });
    // @ts-expect-error the catalogue does not document `extra`
    newEvent(tenantId, 'webhook.test', { message: 'hi', timestamp: '2025-06-04T09:30:00.000Z', extra: 1 });
    // @ts-expect-error a withdrawal's payload is not a notice's
    newEvent(tenantId, 'consent.withdrawn', samples['notice.published']);
    // @ts-expect-error rights.submitted is subscribable but not emitted: it has no payload yet
    newEvent(tenantId, 'rights.submitted', {});
    expect(newEvent(tenantId, 'webhook.test', samples['webhook.test']).data).toBe(samples['webhook.test']);
  });
});
