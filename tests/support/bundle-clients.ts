import { build } from 'esbuild';
import { esbuildOptionsOf } from '../../infra/bundling';

/** The npm packages whose code survives tree-shaking into a function's deployed bundle. */
export const packagesIn = async (entry: string): Promise<string[]> => {
  const result = await build({ ...esbuildOptionsOf(entry, '/nonexistent'), write: false, metafile: true, sourcemap: false });
  const output = Object.values(result.metafile.outputs).find((candidate) => candidate.entryPoint !== undefined)!;
  const packages = new Set<string>();
  for (const [path, input] of Object.entries(output.inputs)) {
    const inside = path.split('node_modules/')[1];
    if (!inside || input.bytesInOutput === 0) continue;
    const [scope, name] = inside.split('/');
    packages.add(scope!.startsWith('@') ? `${scope}/${name}` : scope!);
  }
  return [...packages].sort();
};

/** The AWS SDK clients a function's deployed bundle really contains (client-dynamodb, client-sqs, …). */
export const awsClientsIn = async (entry: string): Promise<string[]> =>
  (await packagesIn(entry)).filter((name) => name.startsWith('@aws-sdk/client-')).map((name) => name.slice('@aws-sdk/'.length));
