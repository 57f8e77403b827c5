#!/usr/bin/env node
// Runs the TypeScript CLI through tsx's loader so the package works from a clone and after `npm install -g`.
import { register } from 'tsx/esm/api';
register();
await import('../suites/cli.ts');
