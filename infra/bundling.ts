import { join } from 'node:path';
import type { BuildOptions } from 'esbuild';
import { OutputFormat, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';

/**
 * The service's built-in words, one JSON file per language (shared/words/built-in/), are not
 * bundled: they travel beside each bundle, in `built-in/` next to index.mjs, where the module that
 * reads them on demand finds them by the same relative URL as from its source
 * (shared/words/built-in-words.ts). So no bundle carries the 22 languages' words (about 800 KB).
 */
export const builtInWordsCopy = (inputDir: string, outputDir: string): string[] => [
  `mkdir -p "${outputDir}/built-in" && cp "${inputDir}/shared/words/built-in/"*.json "${outputDir}/built-in/"`,
];

/**
 * How every Lambda is bundled: the `bundling` of each NodejsFunction (infra/functions.ts). It lives
 * here so that `npm run bench` builds and measures the very bundles a deploy would ship.
 */
export const lambdaBundling = {
  minify: true,
  sourceMap: true,
  // Stack traces only need the mappings; leaving the sources out makes each map a fraction of the size.
  sourcesContent: false,
  format: OutputFormat.ESM,
  // Bundled CommonJS dependencies still call require(); ESM has none unless we make one.
  banner: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
  target: 'node22',
  // Bundle every dependency instead of using whatever the runtime ships (the functions call AWS
  // through shared/aws/, not the SDK, so no AWS SDK version of the runtime's can change them).
  externalModules: [],
  mainFields: ['module', 'main'],
  commandHooks: {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (inputDir: string, outputDir: string) => builtInWordsCopy(inputDir, outputDir),
  },
} satisfies BundlingOptions;

/**
 * The esbuild build NodejsFunction runs for `lambdaBundling` (aws-lambda-nodejs' buildEsbuildArgs:
 * `esbuild --bundle <entry> --platform=node --outfile=<dir>/index.mjs` plus one flag per option),
 * as options for esbuild's API.
 */
export const esbuildOptionsOf = (entry: string, outdir: string): BuildOptions => ({
  entryPoints: [entry],
  bundle: true,
  platform: 'node',
  target: lambdaBundling.target,
  format: lambdaBundling.format === OutputFormat.ESM ? 'esm' : 'cjs',
  outfile: join(outdir, lambdaBundling.format === OutputFormat.ESM ? 'index.mjs' : 'index.js'),
  minify: lambdaBundling.minify,
  sourcemap: lambdaBundling.sourceMap,
  sourcesContent: lambdaBundling.sourcesContent,
  external: lambdaBundling.externalModules,
  banner: { js: lambdaBundling.banner },
  mainFields: lambdaBundling.mainFields,
});
