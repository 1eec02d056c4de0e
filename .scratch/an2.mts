import { build } from 'esbuild';
import { esbuildOptionsOf } from '../infra/bundling';
const name = process.argv[2]!;
const filter = process.argv[3] ?? '@smithy/core';
const entry = name === 'base' ? '/work/wt-i25-scale/bench/baseline/dynamodb-only.ts' : `/work/wt-i25-scale/functions/${name}/handler.ts`;
const r = await build({ ...esbuildOptionsOf(entry, '/tmp/bout-' + name), metafile: true, write: true, logLevel: 'error' });
const out = Object.values(r.metafile!.outputs).find((o) => o.entryPoint)!;
const byFile = Object.entries(out.inputs).map(([p, i]) => [p, i.bytesInOutput] as const).filter(([p]) => p.includes(filter)).sort((a, b) => b[1] - a[1]);
for (const [k, b] of byFile.slice(0, 40)) console.log(String(b).padStart(7), k);
