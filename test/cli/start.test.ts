import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';

/** Starts `gateway start` in a real Node process (as the README's command does) and waits for its URLs. */
async function startCli(args: string[], listeners = 1, command = 'start'): Promise<{ child: ChildProcess; urls: string[] }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', command, '--host', '127.0.0.1', ...args], {
    env: { ...process.env, OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', GEMINI_API_KEY: '', DASHSCOPE_API_KEY: '', JINA_API_KEY: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const urls: string[] = [];
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no start within 20 s:\n${output}`));
    }, 20_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk;
      for (const match of chunk.toString().matchAll(/(?:listening on |Local:\s+)(http:\/\/[\d.:]+)/g)) urls.push(match[1].replace(/\/$/, ''));
      if (urls.length >= listeners) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
    child.once('exit', () => reject(new Error(`exited early:\n${output}`)));
  });
  return { child, urls };
}

async function chat(url: string) {
  const response = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: 'Bearer sk-gateway-simulator', 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'from the cli' }] }),
  });
  return { status: response.status, body: (await response.json()) as any };
}

describe('gateway dev', () => {
  it('serves through listhen for development', async () => {
    const { child, urls } = await startCli(['--port', '18741'], 1, 'dev');
    expect(urls[0]).toMatch(/^http:\/\/127.0.0.1:\d+$/);
    expect((await chat(urls[0])).status).toBe(200);
    child.kill('SIGTERM');
    await once(child, 'exit');
  }, 30_000);
});

describe('gateway start', () => {
  it('serves the default config from the simulated vendors with no secret set, and stops on SIGTERM', async () => {
    const { child, urls } = await startCli(['--port', '0']);
    const { status, body } = await chat(urls[0]);
    expect(status).toBe(200);
    expect(body.choices[0].message.content).toContain('from the cli');
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
  }, 30_000);

  it('runs several worker processes with --workers', async () => {
    const { child, urls } = await startCli(['--port', '0', '--workers', '2'], 2);
    expect(urls).toHaveLength(2);
    expect(urls[0]).toBe(urls[1]);
    expect((await chat(urls[0])).status).toBe(200);
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
  }, 30_000);
});
