/**
 * Holds `count` slow streams open at once: `count` keep-alive connections are opened first (GET
 * /healthz), then every stream request is sent together, one per connection, and read to its end. Usage: `node --import tsx bench/clients/slow-streams-client.ts --url URL --key K
 * --body-file F --count N`. Prints one JSON line: `{"ok":..,"failed":..,"peakOpen":..,"ms":..}`, where
 * `peakOpen` is the most streams that had answered and not yet ended at one time.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';

async function holdStreams(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { url: { type: 'string' }, key: { type: 'string' }, 'body-file': { type: 'string' }, count: { type: 'string' } },
  });
  const url = new URL(values.url!);
  const body = readFileSync(values['body-file']!);
  const count = Number(values.count ?? 1000);
  const headers = { authorization: `Bearer ${values.key}`, 'content-type': 'application/json' };
  const pool = new Pool(url.origin, { connections: count, pipelining: 1, keepAliveTimeout: 60_000 });
  // Open every connection first (GET /healthz), so the streams start together instead of behind connects.
  await Promise.all(
    Array.from({ length: count }, async () => {
      const response = await pool.request({ path: '/healthz', method: 'GET' });
      await response.body.dump();
    }),
  );
  let open = 0;
  let peakOpen = 0;
  let ok = 0;
  let failed = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: count }, async () => {
      try {
        const response = await pool.request({ path: url.pathname, method: 'POST', headers, body });
        open++;
        peakOpen = Math.max(peakOpen, open);
        await response.body.text();
        open--;
        if (response.statusCode >= 200 && response.statusCode <= 299) ok++;
        else failed++;
      } catch {
        failed++;
      }
    }),
  );
  const ms = performance.now() - started;
  await pool.close();
  process.stdout.write(`${JSON.stringify({ ok, failed, peakOpen, ms })}\n`);
}

holdStreams(process.argv.slice(2)).catch((error: Error) => {
  console.error(error.stack ?? error.message);
  process.exit(1);
});
