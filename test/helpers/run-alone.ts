import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/** The lock folder shared by every test process of this checkout's suite on this machine. */
const LOCK = join(tmpdir(), `model-gateway-heavy-test-${process.getuid?.() ?? 0}.lock`);

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Takes the heavy-test lock, waiting while another live test process holds it (a dead holder's lock is broken). */
async function takeLock(): Promise<void> {
  for (;;) {
    try {
      await mkdir(LOCK);
      await writeFile(join(LOCK, 'pid'), String(process.pid));
      return;
    } catch {
      const holder = Number(await readFile(join(LOCK, 'pid'), 'utf8').catch(() => ''));
      if (holder && !isAlive(holder)) await rm(LOCK, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/**
 * Makes a test file run alone among the heavy ones: load tests, multi-process tests and browser tests call it at
 * the top of the file, so that vitest's parallel workers on a 2-core machine never run two of them at once (they
 * would starve each other and flake). Other test files still run beside it. The wait is not counted against the
 * hook timeout of the file that waits: give it `timeoutMs` (default 15 minutes).
 */
export function runAlone(timeoutMs = 900_000): void {
  beforeAll(takeLock, timeoutMs);
  afterAll(async () => {
    const holder = Number(await readFile(join(LOCK, 'pid'), 'utf8').catch(() => ''));
    if (holder === process.pid) await rm(LOCK, { recursive: true, force: true });
  });
}
