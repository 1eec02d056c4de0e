import { build } from 'esbuild';
import { esbuildOptionsOf } from '../../infra/bundling';

interface Built {
  /** Each input file with its bytes in the output. */
  inputs: [string, number][];
  text: string;
}

const built = new Map<string, Promise<Built>>();

/**
 * What survives tree-shaking into a function's deployed bundle: each input file with its bytes
 * there, and the bundle's text. Built once per entry and test file: the stack test reads every
 * bundle several times.
 */
const bundleOf = (entry: string): Promise<Built> => {
  let bundle = built.get(entry);
  if (!bundle) {
    bundle = build({ ...esbuildOptionsOf(entry, '/nonexistent'), write: false, metafile: true, sourcemap: false }).then((result) => {
      const output = Object.values(result.metafile.outputs).find((candidate) => candidate.entryPoint !== undefined)!;
      return {
        inputs: Object.entries(output.inputs)
          .filter(([, input]) => input.bytesInOutput > 0)
          .map(([path, input]): [string, number] => [path, input.bytesInOutput]),
        text: result.outputFiles.find((file) => file.path.endsWith('.mjs'))!.text,
      };
    });
    built.set(entry, bundle);
  }
  return bundle;
};

const inputsIn = async (entry: string): Promise<[string, number][]> => (await bundleOf(entry)).inputs;

/** The function groups whose routes a bundle holds: every route object carries its path, then its `group`, as literals. */
export const routeGroupsIn = async (entry: string): Promise<string[]> =>
  [...new Set([...(await bundleOf(entry)).text.matchAll(/path:"[^"]*",group:"([a-z-]+)"/g)].map((match) => match[1]!))].sort();

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

/** The AWS service each SDK client package calls, by the name IAM gives it. */
const servicePackages: Record<string, string> = {
  '@aws-sdk/client-dynamodb': 'dynamodb',
  '@aws-sdk/client-sqs': 'sqs',
  '@aws-sdk/client-ses': 'ses',
  '@aws-sdk/client-translate': 'translate',
  '@aws-sdk/client-kms': 'kms',
  '@aws-sdk/client-s3': 's3',
  '@aws-sdk/client-secrets-manager': 'secretsmanager',
  '@aws-sdk/client-lambda': 'lambda',
};

/**
 * The AWS services a function's deployed bundle can call (dynamodb, sqs, …): the SDK clients that
 * survive tree-shaking into it. An @aws-sdk/client-* package not mapped here is reported as itself,
 * so a new client fails the grants test until its service is mapped.
 */
export const awsServicesIn = async (entry: string): Promise<string[]> =>
  (await packagesIn(entry))
    .filter((found) => found.startsWith('@aws-sdk/client-'))
    .map((found) => servicePackages[found] ?? found)
    .sort();
