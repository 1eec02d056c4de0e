import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEngines } from './engines';
import { ensureQueues, ensureTable } from './provision';
import { queueDefinitions } from '../../shared/queues';

/**
 * `npm start`: the whole service on this machine. Engines first, then the environment the
 * handlers read, then the handlers themselves (imported after, so they see that environment).
 */
// Lambda runs Node 22; the SDK's notice about the local Node 20 says nothing useful here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

const dataDir = join(process.cwd(), '.data');
const inMemory = process.env.CMS_IN_MEMORY === '1';
const port = Number(process.env.PORT ?? 3000);
// A stable inbox address beside the API, so a bookmarked inbox survives restarts.
const sesPort = Number(process.env.SES_PORT ?? (port === 0 ? 0 : port + 5));
const demoFile = join(dataDir, 'demo.json');
const stackFile = join(dataDir, 'local-stack.json');

interface DemoCredentials {
  tenantId: string;
  email: string;
  password: string;
  apiKey: string;
}

const main = async () => {
  if (!inMemory) mkdirSync(join(dataDir, 'dynamodb'), { recursive: true });
  const engines = await startEngines({
    ports: sesPort > 0 ? { ses: sesPort } : {},
    // The table and the checkpoint archive keep their data side by side: a log's checkpoints outlive a restart with it.
    ...(inMemory ? {} : { dynamodbPath: join(dataDir, 'dynamodb'), archivePath: join(dataDir, 'archive') }),
  });
  Object.assign(process.env, {
    CMS_STAGE: 'local',
    DYNAMODB_ENDPOINT: engines.dynamodbEndpoint,
    SQS_ENDPOINT: engines.sqsEndpoint,
    SES_ENDPOINT: engines.sesEndpoint,
    // The write-once checkpoint archive (S3 API; infra/local/archive-store.ts).
    S3_ENDPOINT: engines.s3Endpoint,
    TABLE_NAME: process.env.TABLE_NAME ?? 'consent-service',
    AWS_REGION: process.env.AWS_REGION ?? 'ap-south-1',
    // The functions' SDK clients read credentials from the environment, as in Lambda; the local
    // engines take any, and no real ones of the shell are ever used here.
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
  });
  for (const name of ['AWS_SESSION_TOKEN', 'AWS_PROFILE']) delete process.env[name];
  const { config } = await import('../../shared/config');
  await ensureTable(engines.dynamodbEndpoint, config.tableName);
  const queues = await ensureQueues(engines.sqsEndpoint);
  const { ensureCheckpointBucket } = await import('../../shared/evidence/archive');
  await ensureCheckpointBucket();
  process.env.WEBHOOK_QUEUE_URL = queues[queueDefinitions.webhookDeliveries.name];
  process.env.SCAN_QUEUE_URL = queues[queueDefinitions.trackerScans.name];
  process.env.BREACH_QUEUE_URL = queues[queueDefinitions.breachIntimations.name];
  // Documents as PDF: printed by the printer's own server, as in AWS by the printer function (shared/documents/pdf.ts).
  const printer = await (await import('./printer')).startPrinter();
  process.env.DOCUMENT_PRINTER_URL = printer.url;
  const { startApiServer } = await import('./server');
  // CMS_FUNCTIONS=bundles: every function from the bundle a deploy would ship (infra/local/bundles.ts).
  const bundles = config.localFunctions === 'bundles' ? await (await import('./bundles')).buildBundles() : undefined;
  // HTTP is answered only once everything below is done (seeding, the stack file `cms` reads,
  // the workers, the banner): whoever polls the port sees a stack that is ready.
  let announceReady = () => {};
  const ready = new Promise<void>((resolve) => (announceReady = resolve));
  const { server, url } = await startApiServer(port, undefined, ready, bundles && ((group) => bundles.handlerOf(group)));
  // Links the service emits (portalUrl, set-password links, and the demo notice's withdrawal route) carry the port
  // actually bound, so the server starts before anything is seeded; config reads this lazily.
  process.env.PORTAL_BASE_URL = process.env.PORTAL_BASE_URL ?? `${url}/portal`;
  process.env.DASHBOARD_BASE_URL = process.env.DASHBOARD_BASE_URL ?? `${url}/dashboard`;
  const demo = await seedDemo();
  // Lets `npm run cms` find this stack's DynamoDB without any configuration.
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(stackFile, JSON.stringify({ dynamodbEndpoint: engines.dynamodbEndpoint, tableName: config.tableName }));
  const { requireTenant } = await import('../../shared/tenants/store');
  const { tenantPortalPageUrl } = await import('../../shared/consent/portal-urls');
  const withdrawalPage = tenantPortalPageUrl((await requireTenant(demo.tenantId)).slug);
  const { startWorkers } = await import('./workers');
  // The whole retained stream: what was written while the stack was down is handed on now (consumers are idempotent).
  const workers = startWorkers(200, {
    streamSince: 'trim-horizon',
    deadLetterQueueUrls: Object.fromEntries(Object.values(queueDefinitions).map((queue) => [queue.deadLetterName, queues[queue.deadLetterName]!])),
    ...(bundles ? { bundles } : {}),
  });

  console.log(`
Consent service running (local stack${inMemory ? ', in memory' : `, data in ${dataDir}`}${bundles ? `, functions from their bundles in ${bundles.root}` : ''})
  API            ${url}/api/v1   (OpenAPI: ${url}/api/v1/openapi.json)
  Dashboard      ${url}/dashboard/   (${demo.email} / ${demo.password})
  Mail inbox     ${engines.sesEndpoint}/   (JSON listing: ${engines.sesEndpoint}/store)
  DynamoDB Local ${engines.dynamodbEndpoint}   SQS emulator ${engines.sqsEndpoint}   Checkpoint archive (S3) ${engines.s3Endpoint}

Demo tenant ${demo.tenantId}
  login     ${demo.email} / ${demo.password}   (SUPER_ADMIN)
  API key   ${demo.apiKey}
  Cookie banner config   ${url}/api/v1/cmp/config/${demo.tenantId}
  Withdrawal page        ${withdrawalPage}   (a principal asks for a withdrawal link by email, and makes rights requests)
  Widget script          ${url}/widget/v1/cms.js
  Widget demo page       ${url}/widget/demo#apiKey=${demo.apiKey}&tenantId=${demo.tenantId}
  Embed tag              <script src="${url}/widget/v1/cms.js" data-api-key="${demo.apiKey}" data-tenant-id="${demo.tenantId}" data-api-base="${url}/api/v1" async></script>

  curl -s -X POST ${url}/api/v1/auth/login -H 'Content-Type: application/json' \\
       -d '{"email":"${demo.email}","password":"${demo.password}"}'
Ctrl-C stops everything.`);
  announceReady();

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping…');
    await workers.stop();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(stackFile, { force: true });
    bundles?.remove();
    await printer.stop();
    await engines.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
};

/** First start creates the demo tenant; later starts reuse it (its API key is only readable from .data). */
const seedDemo = async (): Promise<DemoCredentials> => {
  const { getTenant } = await import('../../shared/tenants/store');
  if (!inMemory && existsSync(demoFile)) {
    const saved = JSON.parse(readFileSync(demoFile, 'utf8')) as DemoCredentials;
    if (await getTenant(saved.tenantId)) return saved;
  }
  const { createTenant } = await import('../../shared/tenants/service');
  const { createApiKey } = await import('../../shared/api-keys/service');
  const email = 'dpo@demo.example';
  const password = 'demo-password-1';
  const tenant = await createTenant({
    name: 'Demo Company',
    slug: 'demo-company',
    website: 'https://demo.example',
    dpoEmail: email,
    adminEmail: email,
    adminPassword: password,
  });
  const { apiKey } = await createApiKey(tenant.tenantId);
  // The cookie banner is live with the defaults, so its public config answers from the first start.
  const { saveConfig } = await import('../../shared/cmp/service');
  await saveConfig(tenant.tenantId, { languages: ['en', 'hi'] });
  await seedDemoNotice(tenant.tenantId, email);
  const demo = { tenantId: tenant.tenantId, email, password, apiKey };
  if (!inMemory) writeFileSync(demoFile, JSON.stringify(demo, null, 2));
  return demo;
};

/** A published notice, so the demo page's notice banner has something to show from the first start. */
const seedDemoNotice = async (tenantId: string, contactEmail: string) => {
  const { createPurpose } = await import('../../shared/purposes/service');
  const { createPurposeBody } = await import('../../shared/purposes/schemas');
  const { createNotice } = await import('../../shared/notices/service');
  const { createNoticeBody } = await import('../../shared/notices/schemas');
  const { publishNotice } = await import('../../shared/notices/publish');
  const orders = await createPurpose(tenantId, createPurposeBody.parse({ name: 'Order processing', description: 'Deliver your orders and tell you about them.', dataCategories: ['name', 'email', 'address'] }));
  const offers = await createPurpose(tenantId, createPurposeBody.parse({ name: 'Offers by email', description: 'Send you offers we think you will like.', dataCategories: ['email'] }));
  const notice = await createNotice(
    tenantId,
    createNoticeBody.parse({
      title: 'How Demo Company uses your data',
      introText: 'We use your personal data only for the purposes below, each with your consent.',
      contactEmail,
      rightsText: 'You may access, correct and erase your data, and withdraw consent at any time.',
      complaintText: 'You may complain to our grievance officer, or to the Data Protection Board of India.',
      purposeIds: [orders.id, offers.id],
      purposeConfig: [
        { purposeId: orders.id, isRequired: true, displayOrder: 0 },
        { purposeId: offers.id, isRequired: false, displayOrder: 1 },
      ],
    }),
  );
  await publishNotice(tenantId, notice.id, null, 'seed');
};

main().catch((error: unknown) => {
  console.error('Local stack failed to start:', error);
  process.exit(1);
});
