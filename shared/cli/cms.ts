import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

/**
 * Operator CLI. Runs the same domain functions as the API against the same store: the local
 * stack's (found through .data/local-stack.json, written by `npm start`) unless
 * DYNAMODB_ENDPOINT / TABLE_NAME say otherwise.
 */

class UsageError extends Error {}

const usage = `Usage:
  cms tenant create --name N [--slug S] [--plan standard|collect-only] [--website URL] [--dpo-email E] [--time-zone Z]
                    [--monthly-consent-limit N] --admin-email E --admin-password P [--json]
  cms user add --tenant ID --email E --password P --role DPO|SUPER_ADMIN|ANALYST|VIEWER [--json]
  cms tenant list [--json]
  cms user list --tenant ID [--json]
  cms apikey create --tenant ID [--kind publishable|secret] [--json]

Through npm, keep npm's own banner off stdout: npm run -s cms -- tenant list --json`;

const options = {
  name: { type: 'string' },
  slug: { type: 'string' },
  plan: { type: 'string' },
  website: { type: 'string' },
  'dpo-email': { type: 'string' },
  'time-zone': { type: 'string' },
  'monthly-consent-limit': { type: 'string' },
  'admin-email': { type: 'string' },
  'admin-password': { type: 'string' },
  tenant: { type: 'string' },
  email: { type: 'string' },
  password: { type: 'string' },
  role: { type: 'string' },
  kind: { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', default: false },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof options; allowPositionals: true }>>['values'];

const required = (values: Values, name: keyof Values): string => {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
};

const integer = (value: string | undefined, name: string): number | undefined => {
  if (value === undefined) return undefined;
  if (!/^[1-9]\d*$/.test(value)) throw new UsageError(`--${name} must be a positive whole number`);
  return Number(value);
};

/** Points the data layer at the local stack when no endpoint is configured. */
const useLocalStackByDefault = () => {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  if (process.env.DYNAMODB_ENDPOINT) return;
  const file = join(process.cwd(), '.data', 'local-stack.json');
  if (!existsSync(file)) {
    throw new UsageError('no local stack is running here (start it with `npm start`), and DYNAMODB_ENDPOINT is not set');
  }
  const stack = JSON.parse(readFileSync(file, 'utf8')) as { dynamodbEndpoint: string; tableName: string };
  process.env.DYNAMODB_ENDPOINT = stack.dynamodbEndpoint;
  process.env.TABLE_NAME ??= stack.tableName;
  // The local engine takes any credentials; the SDK still wants some, from the environment.
  process.env.AWS_ACCESS_KEY_ID ??= 'local';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
};

const run = async (argv: string[]): Promise<{ result: unknown; line: string }> => {
  const { values, positionals } = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  const command = positionals.join(' ');
  if (values.help) return { result: { usage }, line: usage };
  if (command === '') throw new UsageError('a command is required (cms --help lists them)');
  const { ValidationError } = await import('../errors');
  const asUsage = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      if (error instanceof ValidationError) {
        const [field, message] = Object.entries(error.fields ?? {})[0] ?? ['input', error.message];
        throw new UsageError(`${field}: ${message}`);
      }
      throw error;
    }
  };
  switch (command) {
    case 'tenant create': {
      const input = {
        name: required(values, 'name'),
        slug: values.slug,
        plan: (values.plan ?? 'standard') as 'standard' | 'collect-only',
        website: values.website,
        dpoEmail: values['dpo-email'],
        timeZone: values['time-zone'],
        monthlyConsentLimit: integer(values['monthly-consent-limit'], 'monthly-consent-limit'),
        adminEmail: required(values, 'admin-email'),
        adminPassword: required(values, 'admin-password'),
      };
      useLocalStackByDefault();
      const { createTenant } = await import('../tenants/service');
      const result = await asUsage(() => createTenant(input));
      return { result, line: `Created tenant ${result.tenantId} (${result.slug}, ${result.plan}); admin ${result.admin.email} is ${result.admin.role}` };
    }
    case 'user add': {
      const input = {
        tenantId: required(values, 'tenant'),
        email: required(values, 'email'),
        password: required(values, 'password'),
        role: required(values, 'role') as 'DPO',
      };
      useLocalStackByDefault();
      const { addUser } = await import('../tenants/service');
      const result = await asUsage(() => addUser(input));
      return { result, line: `Added ${result.email} as ${result.role} (user ${result.userId})` };
    }
    case 'tenant list': {
      useLocalStackByDefault();
      const { listTenants } = await import('../tenants/store');
      const tenants = (await listTenants()).map(({ tenantId, name, slug, plan, userCount, createdAt }) => ({ tenantId, name, slug, plan, userCount, createdAt }));
      const lines = tenants.map((t) => `${t.tenantId}  ${t.slug}  ${t.plan}  ${t.userCount} user(s)  ${t.name}`);
      return { result: tenants, line: lines.join('\n') || 'No tenants yet (cms tenant create adds one)' };
    }
    case 'user list': {
      const tenantId = required(values, 'tenant');
      useLocalStackByDefault();
      const { requireTenant } = await import('../tenants/store');
      const { listTeam } = await import('../users/service');
      await requireTenant(tenantId);
      const users = await listTeam(tenantId);
      return { result: users, line: users.map((u) => `${u.userId}  ${u.role.padEnd(11)}  ${u.email}`).join('\n') };
    }
    case 'apikey create': {
      const tenantId = required(values, 'tenant');
      const kind = values.kind ?? 'publishable';
      if (kind !== 'publishable' && kind !== 'secret') throw new UsageError('--kind is publishable or secret');
      useLocalStackByDefault();
      const { requireTenant } = await import('../tenants/store');
      const { createApiKey } = await import('../api-keys/service');
      await requireTenant(tenantId);
      const { keyId, apiKey } = await createApiKey(tenantId, kind);
      const note = kind === 'secret' ? 'shown once; keep it on your servers, never in a page' : 'shown once; store it now';
      return { result: { keyId, kind, apiKey }, line: `API key ${keyId} (${kind}): ${apiKey}  (${note})` };
    }
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
};

export const main = async (argv: string[]): Promise<number> => {
  const json = argv.includes('--json');
  try {
    const { result, line } = await run(argv);
    console.log(json ? JSON.stringify(result) : line);
    return 0;
  } catch (error) {
    const usageError = error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    const message = error instanceof Error ? error.message : String(error);
    console.error(`cms: ${message}`);
    return usageError ? 2 : 1;
  }
};

process.exitCode = await main(process.argv.slice(2));
