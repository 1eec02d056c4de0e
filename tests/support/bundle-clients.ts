import { build } from 'esbuild';
import { esbuildOptionsOf } from '../../infra/bundling';

/** What survives tree-shaking into a function's deployed bundle: each input file with its bytes there. */
const inputsIn = async (entry: string): Promise<[string, number][]> => {
  const result = await build({ ...esbuildOptionsOf(entry, '/nonexistent'), write: false, metafile: true, sourcemap: false });
  const output = Object.values(result.metafile.outputs).find((candidate) => candidate.entryPoint !== undefined)!;
  return Object.entries(output.inputs)
    .filter(([, input]) => input.bytesInOutput > 0)
    .map(([path, input]) => [path, input.bytesInOutput]);
};

/** The npm packages whose code survives tree-shaking into a function's deployed bundle. */
export const packagesIn = async (entry: string): Promise<string[]> => {
  const packages = new Set<string>();
  for (const [path] of await inputsIn(entry)) {
    const inside = path.split('node_modules/')[1];
    if (!inside) continue;
    const [scope, name] = inside.split('/');
    packages.add(scope!.startsWith('@') ? `${scope}/${name}` : scope!);
  }
  return [...packages].sort();
};

/** The module through which the functions call each AWS service (shared/aws/, the DynamoDB client, the queue and the mailer). */
const serviceModules: Record<string, string> = {
  'shared/db/client.ts': 'dynamodb',
  'shared/queue/sqs.ts': 'sqs',
  'shared/mail/ses.ts': 'ses',
  'shared/aws/translate.ts': 'translate',
  'shared/aws/kms.ts': 'kms',
  'shared/aws/s3.ts': 's3',
  'shared/aws/secrets-manager.ts': 'secretsmanager',
};

/** The AWS services a function's deployed bundle can call (dynamodb, sqs, …), by the service modules it really contains. */
export const awsServicesIn = async (entry: string): Promise<string[]> =>
  (await inputsIn(entry))
    .map(([path]) => serviceModules[path])
    .filter((service): service is string => service !== undefined)
    .sort();
