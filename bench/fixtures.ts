import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApiKey } from '../shared/api-keys/service';
import { login } from '../shared/auth/service';
import { createTenant } from '../shared/tenants/service';
import { createWebhook } from '../shared/webhooks/service';
import { BatchWriteCommand } from '../shared/db/commands';
import { db, tableName } from '../shared/db/client';
import { expectData, findRoute, requireRoute } from './invoke';

/** What the benchmark needs of a tenant: a published notice with two purposes, an API key and a SUPER_ADMIN token. */
export interface BenchTenant {
  tenantId: string;
  token: string;
  apiKey: string;
  /** A secret key: what the tenant's own server records a named principal with. */
  serverKey: string;
  noticeId: string;
  purposeIds: string[];
}

const password = 'bench-password-1';

/** A fresh tenant set up through the same handlers a dashboard would call. */
export const createBenchTenant = async (label: string): Promise<BenchTenant> => {
  const adminEmail = `admin-${label}-${randomUUID().slice(0, 8)}@bench.example`;
  const { tenantId } = await createTenant({
    name: `Bench ${label}`,
    slug: `bench-${label}-${randomUUID().slice(0, 8)}`,
    adminEmail,
    adminPassword: password,
    // The bench records far more than a month's default volume.
    monthlyConsentLimit: 1_000_000_000,
  });
  const { token } = await login(adminEmail, password);
  const purposeRoute = requireRoute('POST', '/api/v1/purposes');
  const purposeIds: string[] = [];
  for (const [name, dataCategories] of [['Order processing', ['email', 'address']], ['Marketing', ['email']]] as const) {
    const purpose = await expectData<{ id: string }>(purposeRoute, {
      bearer: token,
      body: { name, description: `${name} for the benchmark`, dataCategories },
    });
    purposeIds.push(purpose.id);
  }
  const notice = await expectData<{ id: string }>(requireRoute('POST', '/api/v1/notices'), {
    bearer: token,
    body: {
      title: 'Privacy notice',
      introText: 'We process your data only for the purposes listed below.',
      contactEmail: 'dpo@bench.example',
      rightsText: 'You may access, correct and erase your personal data at any time.',
      complaintText: 'You may complain to our grievance officer or to the Data Protection Board.',
      withdrawalUrl: 'https://bench.example/withdraw',
      purposeIds,
      purposeConfig: purposeIds.map((purposeId, index) => ({ purposeId, isRequired: index === 0, displayOrder: index })),
    },
  });
  await expectData(requireRoute('POST', '/api/v1/notices/:id/publish'), { bearer: token, params: { id: notice.id }, body: {} });
  const { apiKey } = await createApiKey(tenantId);
  const { apiKey: serverKey } = await createApiKey(tenantId, 'secret');
  return { tenantId, token, apiKey, serverKey, noticeId: notice.id, purposeIds };
};

/** Saves the tenant's cookie-consent config (the cmp web-event needs one); false while that route is not built. */
export const saveCookieConfig = async (tenant: BenchTenant): Promise<boolean> => {
  const route = findRoute('PUT', '/api/v1/cmp/config');
  if (!route) return false;
  await expectData(route, { bearer: tenant.token, body: {} });
  return true;
};

/** A webhook receiver on 127.0.0.1 that notes when each consent's first delivery arrived. */
export const startReceiver = async () => {
  const firstArrival = new Map<string, number>();
  let deliveries = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const arrivedAt = performance.now();
      deliveries += 1;
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data?: { consentRecordId?: string } };
      const id = event.data?.consentRecordId;
      if (id && !firstArrival.has(id)) firstArrival.set(id, arrivedAt);
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    firstArrival,
    deliveries: () => deliveries,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** One active webhook of the tenant, subscribed to consent.recorded, delivering to `receiver`. */
export const subscribeWebhook = (tenant: BenchTenant, receiver: Receiver) =>
  createWebhook(tenant.tenantId, {
    label: 'bench receiver',
    url: receiver.url,
    secret: 'bench-webhook-secret-0123456789',
    events: ['consent.recorded'],
  });

export const waitFor = async (condition: () => boolean, timeoutMs: number, what: string): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
};

/** Seeds items straight into the table (batches of 25, eight in flight, unprocessed ones sent again): what a section measures is the work on them. */
export const putItems = async (items: readonly Record<string, unknown>[]): Promise<void> => {
  const batches = Array.from({ length: Math.ceil(items.length / 25) }, (_, index) => items.slice(index * 25, index * 25 + 25));
  let next = 0;
  const writer = async () => {
    while (next < batches.length) {
      let pending: Record<string, unknown>[] | undefined = batches[next++]!.map((Item) => ({ PutRequest: { Item } }));
      while (pending && pending.length > 0) {
        const answer = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
        pending = answer.UnprocessedItems?.[tableName()] as Record<string, unknown>[] | undefined;
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, writer));
};
