#!/usr/bin/env node
// The `gateway` command: runs src/cli.ts through tsx (no build step, no experimental flags).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const tsx = require.resolve('tsx/cli');
const cli = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
const child = spawn(process.execPath, [tsx, cli, ...process.argv.slice(2)], { stdio: 'inherit' });
child.on('exit', (code, signal) => (signal ? process.kill(process.pid, signal) : process.exit(code ?? 1)));
