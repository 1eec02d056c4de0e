import { execSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { functionGroups } from '../../shared/http/route';
import { esbuildOptionsOf, lambdaBundling } from '../bundling';

/**
 * The local stack running the very bundles a deploy ships (`CMS_FUNCTIONS=bundles npm start`, the
 * bundle smoke in CI): every function the CDK stack builds with esbuild, built with the stack's
 * own options (infra/bundling.ts) into a folder under the system's temporary directory, with no
 * node_modules there or above it, as in Lambda: a bundle that needs a package or a file it does
 * not carry fails when it is loaded or called. (The tracker scanner is a container image with
 * Chromium, built from its Dockerfile, and runs from source.)
 */
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

export const bundledFunctionNames = [...functionGroups, 'stream', 'webhook-worker', 'webhook-sweeper', 'scan-scheduler', 'checkpointer', 'stream-sweeper', 'breach-worker', 'rights-sweeper'] as const;
export type BundledFunction = (typeof bundledFunctionNames)[number];

export interface Bundles {
  root: string;
  /** The handler a bundle exports, imported on first use (once per process, as a warm Lambda keeps it). */
  handlerOf<Handler>(name: BundledFunction): Promise<Handler>;
  remove(): void;
}

/** Fails when Node could resolve a package from `dir` the way a bundle's require or import would. */
const assertNoNodeModules = (dir: string): void => {
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, 'node_modules'))) throw new Error(`bundles must run where no node_modules can be found, but ${join(at, 'node_modules')} exists`);
    if (dirname(at) === at) return;
  }
};

export const buildBundles = async (root = mkdtempSync(join(tmpdir(), 'cms-bundles-'))): Promise<Bundles> => {
  assertNoNodeModules(root);
  await Promise.all(
    bundledFunctionNames.map(async (name) => {
      const outputDir = join(root, name);
      await build({ ...esbuildOptionsOf(join(repoRoot, 'functions', name, 'handler.ts'), outputDir), absWorkingDir: repoRoot, logLevel: 'error' });
      // The files the CDK puts beside each bundle (the service's words), by the stack's own hook.
      for (const command of lambdaBundling.commandHooks.afterBundling(repoRoot, outputDir)) execSync(command, { stdio: 'ignore' });
    }),
  );
  const loaded = new Map<string, Promise<unknown>>();
  return {
    root,
    handlerOf: <Handler>(name: BundledFunction) => {
      let handler = loaded.get(name);
      if (!handler) {
        handler = import(pathToFileURL(join(root, name, 'index.mjs')).href).then((module: { handler?: unknown }) => {
          if (typeof module.handler !== 'function') throw new Error(`bundle ${name} exports no handler`);
          return module.handler;
        });
        loaded.set(name, handler);
      }
      return handler as Promise<Handler>;
    },
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
};
