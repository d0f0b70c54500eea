#!/usr/bin/env node
// The `gateway` command: runs src/cli.ts in this very process, with tsx's TypeScript loader registered
// in-process (no child process, so SIGTERM/SIGINT/SIGHUP reach the process that serves).
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
await import('../src/cli.ts');
