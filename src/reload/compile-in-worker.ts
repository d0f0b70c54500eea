import { Worker } from 'node:worker_threads';
import type { CompiledConfig } from '../config/types.ts';

/** What compiling a config file gives: the tables, or every problem as `file:line:col: message`. */
export interface WorkerAnswer {
  config?: CompiledConfig;
  problems: string[];
}

/** A worker thread that compiles config files. */
export interface CompileWorker {
  /** Checks and compiles `file`. Never throws: a failure of the worker itself is one problem naming the file. */
  compile(file: string): Promise<WorkerAnswer>;
  /** Ends the worker thread. */
  close(): Promise<void>;
}

/** The worker's entry: the TypeScript source beside this module, or the bundled `compile-worker.mjs` beside dist/gateway.mjs. */
function getWorkerUrl(): URL {
  const fromSource = import.meta.url.endsWith('.ts');
  if (!fromSource) return new URL('./compile-worker.mjs', import.meta.url);
  // Worker threads do not inherit tsx's loader: a data: module registers it, then loads the TypeScript entry.
  const entry = new URL('./compile-worker.ts', import.meta.url).href;
  const tsx = import.meta.resolve('tsx/esm/api');
  const code = `const { register } = await import(${JSON.stringify(tsx)}); register(); await import(${JSON.stringify(entry)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(code)}`);
}

type Pending = Map<number, (answer: WorkerAnswer) => void>;

/**
 * Starts (on first use) a worker thread that checks and compiles config files: the compiler, YAML parser and
 * schema checks never run on the thread that serves requests, so a large config does not stall them. The thread
 * stays up between compiles (unref'd: it never keeps the process alive); one that fails, exits or takes longer
 * than `timeoutMs` answers its compiles with a problem and is replaced at the next compile.
 */
export function createCompileWorker(timeoutMs = 120_000): CompileWorker {
  let worker: Worker | undefined;
  let pending: Pending = new Map();
  let nextId = 0;
  const end = (ended: Worker, reason: string) => {
    if (worker !== ended) return;
    worker = undefined;
    const left = pending;
    pending = new Map();
    for (const [, resolve] of left) resolve({ problems: [reason] });
    void ended.terminate();
  };
  const start = (file: string): Worker => {
    const started = new Worker(getWorkerUrl());
    const own = pending;
    started.unref();
    started.on('message', ({ id, ...answer }: WorkerAnswer & { id: number }) => {
      own.get(id)?.(answer);
      own.delete(id);
    });
    started.on('error', (error) => end(started, `${file}: the compile failed: ${error.message}`));
    started.on('exit', (code) => end(started, `${file}: the compile worker exited with code ${code}`));
    return started;
  };
  return {
    compile(file) {
      const current = (worker ??= start(file));
      const id = nextId++;
      return new Promise((resolve) => {
        const timer = setTimeout(() => end(current, `${file}: the compile took longer than ${timeoutMs / 1000} s`), timeoutMs);
        timer.unref();
        pending.set(id, (answer) => {
          clearTimeout(timer);
          resolve(answer);
        });
        current.postMessage({ id, file });
      });
    },
    async close() {
      const current = worker;
      if (current) end(current, 'the compile worker was closed');
    },
  };
}
