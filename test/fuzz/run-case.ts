import type { UsageEvent } from '../../src/runtime/types.ts';
import { checkAnswer, checkVendorCalls, findSecrets, type Expectation } from './check-answer.ts';
import type { FuzzGateway } from './fuzz-gateway.ts';
import { checkFraming, formatHead, sendRaw, type RawRequest } from './raw-http.ts';
import type { VendorCall } from './vendor-call.ts';

/** Longest wait for an answer: hostile vendors time out well within it. */
const ANSWER_WAIT_MS = 5_000;
/** Longest wait, once answered, for requests in flight and vendor calls to be over. */
const SETTLE_WAIT_MS = 5_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Where a case starts in the gateway's records, so that what it caused can be told apart. */
export interface CaseMark {
  calls: number;
  logs: number;
  crashes: number;
}

/** Marks the start of a case. */
export function markCase(fuzz: FuzzGateway): CaseMark {
  return { calls: fuzz.calls.length, logs: fuzz.logs.length, crashes: fuzz.crashes.length };
}

/** Waits until no request is in flight and every vendor call is over; a problem when that never happens. */
export async function settleCase(fuzz: FuzzGateway, mark: CaseMark): Promise<{ calls: VendorCall[]; problems: string[] }> {
  const deadline = Date.now() + SETTLE_WAIT_MS;
  const busy = () => fuzz.gateway.inFlight() > 0 || fuzz.calls.slice(mark.calls).some((call) => !call.settled);
  while (busy() && Date.now() < deadline) await sleep(5);
  const problems: string[] = [];
  if (fuzz.gateway.inFlight() > 0) problems.push(`in-flight count stayed at ${fuzz.gateway.inFlight()} for ${SETTLE_WAIT_MS} ms after the answer`);
  const open = fuzz.calls.slice(mark.calls).filter((call) => !call.settled);
  if (open.length) problems.push(`${open.length} vendor call(s) still open ${SETTLE_WAIT_MS} ms after the answer`);
  return { calls: fuzz.calls.slice(mark.calls), problems };
}

/** The process-level promises of every case: no crash, no secret in a log line, /healthz still answers. */
export async function checkProcess(fuzz: FuzzGateway, mark: CaseMark): Promise<string[]> {
  const problems = fuzz.crashes.slice(mark.crashes).map((crash) => crash.split('\n').slice(0, 4).join(' | '));
  const logged = fuzz.logs.slice(mark.logs).join('');
  for (const name of findSecrets(logged, fuzz.secrets)) problems.push(`${name} written to the log: ${getExcerpt(logged, fuzz.secrets[name])}`);
  const health = await sendRaw(fuzz.port, { head: formatHead('GET', '/healthz', [['host', 'fuzz'], ['connection', 'close']]) }, 3000);
  if (health.status !== 200) problems.push(`/healthz no longer answers 200 (got ${health.status ?? health.socketError ?? 'nothing'})`);
  return problems;
}

/** The text around `secret` in `text`, for a readable report. */
export function getExcerpt(text: string, secret: string): string {
  const at = text.indexOf(secret);
  return JSON.stringify(text.slice(Math.max(0, at - 100), at + secret.length + 20));
}

async function findEvent(fuzz: FuzzGateway, requestId: string | undefined): Promise<UsageEvent | undefined> {
  if (!requestId) return undefined;
  for (let i = 0; i < 20; i++) {
    for (let at = fuzz.events.length - 1; at >= 0; at--) if (fuzz.events[at].requestId === requestId) return fuzz.events[at];
    await sleep(5);
  }
  return undefined;
}

/** Sends one HTTP case over a raw socket and returns every promise it broke (empty when all held). */
export async function runHttpCase(fuzz: FuzzGateway, request: RawRequest, expect: Expectation): Promise<string[]> {
  const mark = markCase(fuzz);
  const answer = await sendRaw(fuzz.port, request, ANSWER_WAIT_MS);
  const settled = await settleCase(fuzz, mark);
  const event = await findEvent(fuzz, answer.headers['x-request-id']);
  if (process.env.FUZZ_DEBUG) console.log(`[fuzz] ${answer.status ?? '---'} ${event?.error ?? ''} calls=${settled.calls.length} ${String(request.head).split(/[\r\n?]/)[0].slice(0, 120)}`);
  const problems = [...checkAnswer(answer.status, answer.headers, answer.body, expect, settled.calls.some((call) => call.hostile)), ...settled.problems];
  if (answer.status === undefined && !expect.truncated) problems.push(`(socket: ${answer.socketError ?? (answer.timedOut ? 'wait ran out' : 'closed')})`);
  problems.push(...checkFraming(request, answer));
  problems.push(...checkVendorCalls(answer.status, settled.calls, event, expect));
  const received = answer.raw.toString('latin1');
  const where = `${answer.status ?? 'cut'} ${answer.headers['content-type']?.includes('event-stream') ? 'stream' : 'response'}`;
  for (const name of findSecrets(received, fuzz.secrets)) problems.push(`${name} in the ${where}: ${getExcerpt(received, fuzz.secrets[name])}`);
  problems.push(...(await checkProcess(fuzz, mark)));
  return problems;
}
