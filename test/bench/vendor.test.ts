import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { readFirstJsonLine, startNodeProcess, type BenchProcess } from '../../bench/processes.ts';

const KEY = 'sk-bench-vendor-test';

/** `bench/vendor.ts` in its own process, as the bench starts it. */
describe('the bench vendor script', () => {
  const started: BenchProcess[] = [];
  const startVendor = async (args: string[]): Promise<string> => {
    const proc = startNodeProcess({ name: 'test vendor', args: ['bench/vendor.ts', '--key', KEY, ...args] });
    started.push(proc);
    return (await readFirstJsonLine<{ url: string }>(proc)).url;
  };
  afterEach(async () => {
    await Promise.all(started.splice(0).map((proc) => proc.stop()));
  });

  it('serves DashScope image tasks with --protocol dashscope, under /api/v1', async () => {
    const url = await startVendor(['--protocol', 'dashscope']);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    const response = await request(`${url}/services/aigc/text2image/image-synthesis`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'x-dashscope-async': 'enable', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'bench-wan', input: { prompt: 'a lighthouse' }, parameters: { n: 1 } }),
    });
    expect(response.statusCode).toBe(200);
    expect(((await response.body.json()) as any).output.task_status).toBe('PENDING');
  });

  it('serves the OpenAI protocol by default', async () => {
    const url = await startVendor([]);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const response = await request(`${url}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'ping' }] }),
    });
    expect(response.statusCode).toBe(200);
    expect(((await response.body.json()) as any).object).toBe('chat.completion');
  });

  it('refuses a protocol it does not serve (the static vendor serves Anthropic)', async () => {
    await expect(startVendor(['--protocol', 'anthropic'])).rejects.toThrow(/exited \(1\) before it was ready/);
  });
});
