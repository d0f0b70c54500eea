import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';

/** A real redis-server on 127.0.0.1 for tests: no persistence, stoppable and restartable on its port. */
export interface TestRedis {
  port: number;
  url: string;
  /** Kills the server (like a crash) and waits for it to exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port (empty). */
  start(): Promise<void>;
  /** Freezes / thaws the process: connections stay open but nothing answers. */
  pause(): void;
  resume(): void;
}

/** Starts `redis-server` on a free port; fails loudly when it is not installed. */
export async function startTestRedis(): Promise<TestRedis> {
  const port = await getFreePort();
  let child: ChildProcess | undefined;
  const server: TestRedis = {
    port,
    url: `redis://127.0.0.1:${port}`,
    async start() {
      child = await spawnRedis(port);
    },
    async stop() {
      const running = child;
      child = undefined;
      if (!running || running.exitCode !== null) return;
      running.kill('SIGCONT');
      const exited = once(running, 'exit');
      running.kill('SIGKILL');
      await exited;
    },
    pause() {
      child?.kill('SIGSTOP');
    },
    resume() {
      child?.kill('SIGCONT');
    },
  };
  await server.start();
  return server;
}

async function spawnRedis(port: number): Promise<ChildProcess> {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 5000);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`cannot run redis-server (apt-get install redis-server): ${error.message}`));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}:\n${output}`));
    });
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  child.stdout!.resume();
  child.stderr!.resume();
  return child;
}

async function getFreePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as { port: number };
  probe.close();
  await once(probe, 'close');
  return port;
}
