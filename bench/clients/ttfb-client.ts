/**
 * Time to first byte of streamed responses at an undici client: `count` sequential requests on one
 * keep-alive connection (after `warmup` untimed ones), timed from the call to the first body chunk.
 * Usage: `node --import tsx bench/clients/ttfb-client.ts --url URL --key K --body-file F --count N --warmup W`.
 * Prints one JSON line: `{"p50Us":..,"p99Us":..,"count":..,"non2xx":..}`.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Client } from 'undici';
import { getPercentile } from '../stats.ts';

type Body = NodeJS.ReadableStream;

/** Resolves at the end of a body with the time its first chunk arrived. */
function timeFirstChunk(body: Body): Promise<bigint> {
  return new Promise((resolve, reject) => {
    let first: bigint | undefined;
    body.on('data', () => {
      first ??= process.hrtime.bigint();
    });
    body.once('end', () => resolve(first ?? process.hrtime.bigint()));
    body.once('error', reject);
  });
}

async function measureTtfb(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { url: { type: 'string' }, key: { type: 'string' }, 'body-file': { type: 'string' }, count: { type: 'string' }, warmup: { type: 'string' } },
  });
  const url = new URL(values.url!);
  const body = readFileSync(values['body-file']!);
  const headers = { authorization: `Bearer ${values.key}`, 'content-type': 'application/json' };
  const client = new Client(url.origin, { keepAliveTimeout: 60_000 });
  const count = Number(values.count ?? 500);
  const warmup = Number(values.warmup ?? 50);
  const times: number[] = [];
  let non2xx = 0;
  for (let i = 0; i < warmup + count; i++) {
    const started = process.hrtime.bigint();
    const response = await client.request({ path: url.pathname, method: 'POST', headers, body });
    const first = await timeFirstChunk(response.body);
    if (i < warmup) continue;
    if (response.statusCode < 200 || response.statusCode > 299) non2xx++;
    times.push(Number(first - started) / 1000);
  }
  await client.close();
  const result = { p50Us: getPercentile(times, 50), p99Us: getPercentile(times, 99), count: times.length, non2xx };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

measureTtfb(process.argv.slice(2)).catch((error: Error) => {
  console.error(error.stack ?? error.message);
  process.exit(1);
});
