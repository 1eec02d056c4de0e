import { build } from 'esbuild';
import { esbuildOptionsOf } from '../../infra/bundling';

/**
 * The AWS SDK clients a function's deployed bundle really contains: esbuild's metafile after
 * tree-shaking, counting a client only when some of its code survives into the output.
 */
export const awsClientsIn = async (entry: string): Promise<string[]> => {
  const result = await build({ ...esbuildOptionsOf(entry, '/nonexistent'), write: false, metafile: true, sourcemap: false });
  const output = Object.values(result.metafile.outputs).find((candidate) => candidate.entryPoint !== undefined)!;
  const clients = new Set<string>();
  for (const [path, input] of Object.entries(output.inputs)) {
    const client = /@aws-sdk\/(client-[a-z0-9-]+)\//.exec(path)?.[1];
    if (client && input.bytesInOutput > 0) clients.add(client);
  }
  return [...clients].sort();
};
