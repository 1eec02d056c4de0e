#!/usr/bin/env node
// The package's `cms` command: runs the TypeScript CLI through tsx.
import { register } from 'tsx/esm/api';

register();
await import('./cms.ts');
