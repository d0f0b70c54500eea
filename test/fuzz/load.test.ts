import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { arbitraryRouteCase, describeCase } from './arbitraries-requests.ts';
import { checkAnswer, findSecrets } from './check-answer.ts';
import { BURST_CONCURRENCY, FUZZ_CLIENT_KEYS, startFuzzGateway, type FuzzGateway } from './fuzz-gateway.ts';
import { getFuzzTimeout, runFuzz } from './fuzz-run.ts';
import { formatHead, sendRaw } from './raw-http.ts';
import { checkProcess, getExcerpt, markCase, settleCase } from './run-case.ts';

const RUNS = 6;

describe('fuzz: concurrent load', () => {
  let fuzz: FuzzGateway;
  beforeAll(async () => {
    fuzz = await startFuzzGateway();
  });
  afterAll(() => fuzz.close());

  it(
    'returns to zero requests in flight and frees every concurrency slot once a burst of mixed requests (hostile vendors, cut uploads) ends',
    async () => {
      const one = fc.tuple(arbitraryRouteCase(fuzz.config, { bodies: ['plausible', 'mutated', 'over-limit'], auth: ['bearer', 'x-api-key', 'x-goog-api-key'] }), fc.option(fc.double({ min: 0, max: 0.9, noNaN: true }), { freq: 4 })).map(([c, cut]) => {
        const head = String(c.request.head).replaceAll(FUZZ_CLIENT_KEYS.main, FUZZ_CLIENT_KEYS.burst);
        const cutAfter = cut === null ? undefined : Math.floor((c.request.body?.length ?? 0) * cut);
        return describeCase({ ...c.request, head, cutAfter }, { ...c.expect, truncated: cutAfter !== undefined });
      });
      await runFuzz(
        'load',
        fc.array(one, { minLength: 10, maxLength: 25 }),
        async (cases) => {
          const mark = markCase(fuzz);
          const answers = await Promise.all(cases.map((c) => sendRaw(fuzz.port, c.request, 5000)));
          const problems: string[] = [];
          answers.forEach((answer, i) => {
            const hostile = String(cases[i].request.head).includes('hostile-') || Boolean(cases[i].request.body?.includes('hostile-'));
            problems.push(...checkAnswer(answer.status, answer.headers, answer.body, cases[i].expect, hostile));
            const received = answer.raw.toString('latin1');
            for (const name of findSecrets(received, fuzz.secrets)) problems.push(`${name} in a ${answer.status} answer under load: ${getExcerpt(received, fuzz.secrets[name])}`);
          });
          problems.push(...(await settleCase(fuzz, mark)).problems);
          // Every slot of the burst key is free again: as many concurrent requests as its limit all get in.
          const head = formatHead('GET', '/v1/models', [['host', 'fuzz.test'], ['connection', 'close'], ['authorization', `Bearer ${FUZZ_CLIENT_KEYS.burst}`]]);
          const probes = await Promise.all(Array.from({ length: BURST_CONCURRENCY }, () => sendRaw(fuzz.port, { head }, 5000)));
          const refused = probes.filter((probe) => probe.status !== 200).map((probe) => probe.status ?? 'none');
          if (refused.length) problems.push(`after the burst, ${refused.length} of ${BURST_CONCURRENCY} requests within the key's concurrency limit were refused: ${refused.join(', ')}`);
          return [...problems, ...(await checkProcess(fuzz, mark))];
        },
        RUNS,
      );
    },
    getFuzzTimeout(RUNS, 3000),
  );
});
