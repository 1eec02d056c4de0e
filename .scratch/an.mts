import { build } from 'esbuild';
import { esbuildOptionsOf } from '/work/wt-i25-scale/infra/bundling';
const name = process.argv[2]!;
const entry = name === 'base' ? '/work/wt-i25-scale/bench/baseline/dynamodb-only.ts' : `/work/wt-i25-scale/functions/${name}/handler.ts`;
const r = await build({ ...esbuildOptionsOf(entry, '/tmp/bout-' + name), metafile: true, write: true, logLevel: 'error' });
const out = Object.values(r.metafile!.outputs).find((o) => o.entryPoint)!;
console.log(name, out.bytes);
const byFile = Object.entries(out.inputs).map(([p, i]) => [p, i.bytesInOutput] as const).sort((a, b) => b[1] - a[1]);
const byDir = new Map<string, number>();
for (const [p, b] of byFile) { const k = p.replace(/node_modules\//, '').split('/').slice(0, p.includes('@smithy') || p.includes('@aws-sdk') ? 4 : 3).join('/'); byDir.set(k, (byDir.get(k) ?? 0) + b); }
for (const [k, b] of [...byDir].sort((a, b) => b[1] - a[1]).slice(0, Number(process.argv[3] ?? 40))) console.log(String(b).padStart(7), k);
