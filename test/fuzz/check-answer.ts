import type { Style } from '../../src/config/types.ts';
import type { UsageEvent } from '../../src/runtime/types.ts';
import type { VendorCall } from './vendor-call.ts';

/** What a fuzz case promises about its answer. */
export interface Expectation {
  /** The caller's style; undefined when the request names no route (any of the three error shapes will do). */
  style?: Style;
  /** The client cut its own upload: it may get no answer at all. */
  truncated?: boolean;
  /** Why the gateway must refuse this request itself with a 4xx before any vendor is called (e.g. wrong content type). */
  rejectBeforeVendor?: string;
}

const isText = (value: unknown) => typeof value === 'string';

/** Why `body` is not an error of `style` for `status` (undefined when it is one). */
export function checkErrorShape(style: Style, status: number, body: any): string | undefined {
  const error = body?.error;
  if (style === 'anthropic') {
    return body?.type === 'error' && isText(error?.type) && isText(error?.message) ? undefined : 'not an Anthropic error {type:"error",error:{type,message}}';
  }
  if (style === 'gemini') {
    if (!(error?.code === status || status === 200) || !isText(error?.message) || !isText(error?.status)) return 'not a Google error {error:{code,message,status}}';
    return undefined;
  }
  const ok = isText(error?.message) && isText(error?.type) && 'param' in error && 'code' in error;
  return ok ? undefined : 'not an OpenAI error {error:{message,type,param,code}}';
}

function parseJson(text: string): { value?: unknown; failed: boolean } {
  try {
    return { value: JSON.parse(text), failed: false };
  } catch {
    return { failed: true };
  }
}

/** Problems of an SSE body: data lines that are not JSON, error events not in the caller's style. */
function checkStream(style: Style | undefined, text: string): string[] {
  const problems: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (!line.startsWith('data:')) continue;
    const data = line.slice(5).trim();
    if (data === '' || data === '[DONE]') continue;
    const parsed = parseJson(data);
    if (parsed.failed) problems.push(`stream data line is not JSON: ${data.slice(0, 120)}`);
    const event = parsed.value as any;
    if (event && typeof event === 'object' && ('error' in event || event.type === 'error')) {
      const styles: Style[] = style ? [style] : ['openai', 'anthropic', 'gemini'];
      if (styles.every((s) => checkErrorShape(s, 200, event))) problems.push(`in-stream error not in the ${style ?? 'any'} style: ${data.slice(0, 200)}`);
    }
  }
  return problems;
}

/**
 * Well-formedness of an HTTP answer: a status, `x-request-id`, and a success or error body in the caller's style.
 * `hostile`: a hostile vendor answered; a success relayed byte for byte (passthrough, never scanned on the hot
 * path) may then carry its garbage, so only the gateway's own parts (status, headers, errors) are checked.
 */
export function checkAnswer(status: number | undefined, headers: Record<string, string>, body: Buffer, expect: Expectation, hostile = false): string[] {
  if (status === undefined) return expect.truncated ? [] : ['no answer: the connection ended (or the wait ran out) before a status line'];
  const problems: string[] = [];
  if (!headers['x-request-id']) problems.push(`${status} without an x-request-id header`);
  const type = headers['content-type'] ?? '';
  const text = body.toString('utf8');
  if (status >= 400) {
    const parsed = parseJson(text);
    if (!type.includes('application/json') || parsed.failed) return [...problems, `${status} error body is not JSON (${type || 'no content-type'}): ${text.slice(0, 120)}`];
    const styles: Style[] = expect.style ? [expect.style] : ['openai', 'anthropic', 'gemini'];
    const shape = styles.map((style) => checkErrorShape(style, status, parsed.value));
    if (shape.every(Boolean)) problems.push(`${status} ${shape.join(' / ')}: ${text.slice(0, 200)}`);
  } else if (status >= 200 && status < 300) {
    if (type.includes('text/event-stream')) problems.push(...checkStream(expect.style, text).filter((p) => !hostile || !p.startsWith('stream data line')));
    else if (!hostile && type.includes('json') && parseJson(text).failed) problems.push(`${status} JSON body does not parse: ${text.slice(0, 120)}`);
  } else {
    problems.push(`unexpected status ${status}`);
  }
  return problems;
}

const describeCalls = (calls: VendorCall[]) =>
  calls.map((c) => `${c.vendor} ${c.method} ${c.url.slice(0, 80)} -> ${c.status ?? 'none'}${c.complete ? '' : ' (incomplete)'}`).join('; ');

/**
 * What the vendor calls of a case say about its answer: a 4xx the gateway decided follows no vendor call
 * unless a vendor refused (a 4xx status, or an exception inside its 2xx stream), a request the gateway must
 * refuse reached none, and a 5xx is never the answer to a client mistake (no 500 `internal_error`; a
 * 502/503/504 only when some vendor failed or is hostile).
 */
export function checkVendorCalls(status: number | undefined, calls: VendorCall[], event: UsageEvent | undefined, expect: Expectation): string[] {
  const problems: string[] = [];
  if (expect.rejectBeforeVendor) {
    if (calls.length > 0) problems.push(`${expect.rejectBeforeVendor}, yet it reached the vendor: ${describeCalls(calls)}`);
    // 501: the gateway itself refuses an operation the model's vendor cannot serve (decided before any call too).
    if (status !== undefined && (status < 400 || (status >= 500 && status !== 501))) problems.push(`${expect.rejectBeforeVendor}, yet it was answered ${status}`);
  }
  if (status === undefined) return problems;
  // A vendor refuses with a 4xx status, or, in a 2xx stream, with an in-stream exception (Bedrock's).
  const vendorSaid4xx = calls.some((c) => (c.status !== undefined && c.status >= 400 && c.status < 500) || c.streamError === true);
  // A multipart upload is streamed on once its model field is read: cut after that, the vendor call has begun
  // and is abandoned before the vendor answers, and the 400 for the cut body is still the gateway's to give.
  const abandonedUpload = expect.truncated === true && calls.every((c) => c.status === undefined);
  if (status >= 400 && status < 500 && calls.length > 0 && !vendorSaid4xx && !expect.rejectBeforeVendor && !abandonedUpload) {
    problems.push(`gateway-decided ${status}${event?.error ? ` ${event.error}` : ''} after vendor call(s) that did not answer 4xx: ${describeCalls(calls)}`);
  }
  // The usage event names the cause; without one, a 500 no vendor answered is taken for the gateway's own.
  const internal = event ? event.error === 'internal_error' : status === 500 && !calls.some((c) => c.status === 500 || c.hostile);
  if (internal) {
    problems.push(`500 internal error (a throw the gateway did not handle)${calls.length ? ` after ${describeCalls(calls)}` : ''}`);
  } else if (status >= 502 && !calls.some((c) => c.hostile || c.status === undefined || c.status >= 500 || !c.complete)) {
    problems.push(`${status}${event?.error ? ` ${event.error}` : ''} blames a vendor that ${calls.length ? `answered well: ${describeCalls(calls)}` : 'was never called'}`);
  }
  return problems;
}

/** Names of the secrets found in `text`. */
export function findSecrets(text: string, secrets: Record<string, string>): string[] {
  return Object.entries(secrets)
    .filter(([, value]) => text.includes(value))
    .map(([name]) => name);
}
