import { join } from 'node:path';
import type { BuildOptions } from 'esbuild';
// Types only: the local stack and the bench build bundles from these options without loading the CDK.
import type { BundlingOptions, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';

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
  format: 'esm' as OutputFormat.ESM,
  // Bundled CommonJS dependencies still call require(); ESM has none unless we make one.
  banner: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
  target: 'node22',
  // The SDK is bundled and pinned by the lock file, never the runtime's copy (measured slower to
  // load, and changed under us by runtime updates). Left out: the credential providers a Lambda
  // never reaches, which the SDK's default chain imports only after the environment's credentials
  // are missing (SSO, shared ini files, credential_process, web identity, container and instance
  // metadata; with them their nested STS/SSO clients), as aws-cdk issue 29310 describes. Were one
  // ever reached, its import fails loudly; the bundle smoke (scripts/bundle-smoke.ts) runs every
  // function from a folder with no node_modules on the environment's credentials alone.
  externalModules: [
    '@aws-sdk/credential-provider-ini',
    '@aws-sdk/credential-provider-sso',
    '@aws-sdk/credential-provider-process',
    '@aws-sdk/credential-provider-web-identity',
    '@aws-sdk/credential-provider-http',
    '@smithy/credential-provider-imds',
  ],
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
  format: lambdaBundling.format,
  outfile: join(outdir, 'index.mjs'),
  minify: lambdaBundling.minify,
  sourcemap: lambdaBundling.sourceMap,
  sourcesContent: lambdaBundling.sourcesContent,
  external: lambdaBundling.externalModules,
  banner: { js: lambdaBundling.banner },
  mainFields: lambdaBundling.mainFields,
});
