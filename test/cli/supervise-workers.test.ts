import type { Worker } from 'node:cluster';
import { EventEmitter } from 'node:events';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { superviseWorkers, type WorkerCluster } from '../../src/cli/supervise-workers.ts';

/** A stand-in for node:cluster: each fork is a worker whose kills are recorded; `exit` emits what Node emits at a worker's exit. */
function createFakeCluster() {
  const events = new EventEmitter();
  const forked: { worker: Worker; kills: string[] }[] = [];
  const cluster: WorkerCluster = {
    fork() {
      const kills: string[] = [];
      const worker = { process: { pid: 1000 + forked.length, kill: (signal: string) => kills.push(signal) } } as unknown as Worker;
      forked.push({ worker, kills });
      return worker;
    },
    on: (event, listener) => events.on(event, listener),
  };
  const exit = (index: number, code: number | null, signal: string | null = null) => events.emit('exit', forked[index].worker, code, signal);
  return { cluster, forked, exit };
}

function supervise(count: number, policy = { maxFailures: 3, windowMs: 60_000, firstDelayMs: 5, maxDelayMs: 5 }) {
  const fake = createFakeCluster();
  const lines: string[] = [];
  const logger = pino(new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    }));
  const exits: number[] = [];
  let stops = 0;
  const workers = superviseWorkers(count, { logger, cluster: fake.cluster, policy, onStop: () => stops++, exit: (code) => exits.push(code) });
  return { ...fake, workers, exits, lines, stops: () => stops };
}

describe('superviseWorkers', () => {
  it("exits 0 at the last worker's exit after a stop, whether or not Node has seen its IPC channel close yet", () => {
    const { workers, forked, exit, exits, stops } = supervise(2);
    workers.stop('SIGTERM');
    expect(forked.map(({ kills }) => kills)).toEqual([['SIGTERM'], ['SIGTERM']]);
    expect(stops()).toBe(1);
    // node:cluster emits 'exit' before 'disconnect' when the process's end is seen first: nothing else is awaited.
    exit(1, 0);
    expect(exits).toEqual([]);
    exit(0, 0);
    expect(exits).toEqual([0]);
  });

  it('exits 1 when a worker did not end its drain with code 0', () => {
    const { workers, exit, exits } = supervise(2);
    workers.stop('SIGINT');
    exit(0, 1);
    exit(1, 0);
    expect(exits).toEqual([1]);
  });

  it('restarts a worker that died while serving, after the policy delay, and stops the new one too', async () => {
    const { workers, forked, exit, exits, lines } = supervise(2);
    exit(0, null, 'SIGKILL');
    expect(workers.count()).toBe(1);
    expect(lines.join('')).toContain('worker 1000 exited (SIGKILL): restarting it in 5 ms');
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(forked).toHaveLength(3);
    expect(workers.count()).toBe(2);
    workers.stop('SIGTERM');
    expect(forked[2].kills).toEqual(['SIGTERM']);
    exit(1, 0);
    exit(2, 0);
    expect(exits).toEqual([0]);
  });

  it('gives up on a crash loop: a fatal line, every worker stopped, exit 1 once they have gone', async () => {
    const { forked, exit, exits, lines, stops } = supervise(2);
    exit(0, 1);
    exit(1, 1);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(forked).toHaveLength(4);
    // A third failure within the window is the loop: the other worker is stopped, and the primary waits for it.
    exit(2, 1);
    expect(lines.join('')).toContain('workers are failing in a loop (3 failures within 60 s, the last: code 1)');
    expect(stops()).toBe(1);
    expect(forked[3].kills).toEqual(['SIGTERM']);
    expect(exits).toEqual([]);
    exit(3, null, 'SIGTERM');
    expect(exits).toEqual([1]);
  });

  it('does not restart a worker that exits while the primary stops', async () => {
    const { workers, forked, exit, exits } = supervise(1);
    workers.stop('SIGTERM');
    exit(0, null, 'SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(forked).toHaveLength(1);
    expect(exits).toEqual([1]);
  });
});
