import { build } from 'esbuild';
import { esbuildOptionsOf } from '../infra/bundling';
const name = process.argv[2]!;
const depth = Number(process.argv[3] ?? 5);
const entry = name === 'base' ? '/work/wt-i25-scale/bench/baseline/dynamodb-only.ts' : `/work/wt-i25-scale/functions/${name}/handler.ts`;
const r = await build({ ...esbuildOptionsOf(entry, '/tmp/bout-' + name), metafile: true, write: true, logLevel: 'error' });
const out = Object.values(r.metafile!.outputs).find((o) => o.entryPoint)!;
console.log('total', out.bytes);
const m = new Map<string, number>();
for (const [p, i] of Object.entries(out.inputs)) { const k = p.replace(/^.*node_modules\//, '').split('/').slice(0, depth).join('/'); m.set(k, (m.get(k) ?? 0) + i.bytesInOutput); }
for (const [k, b] of [...m].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(String(b).padStart(7), k);
