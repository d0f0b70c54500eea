import { GatewayError } from '../errors.ts';
import { pollWithBackoff } from '../images/poll.ts';
import type { ImageBackend, ImageBatch, ImageDatum } from '../images/types.ts';
import type { OpCall, RuntimeVendor, Usage, VendorResponse } from '../runtime/types.ts';
import { readErrorBody, toVendorError } from '../runtime/vendor-error.ts';
import { getAt, isJsonObject, readPath, setAt, deleteAt, type JsonObject } from '../transforms/path.ts';
import type { ProtocolAdapter } from './types.ts';

/** Where Wan text-to-image tasks are created and looked up (relative to `.../api/v1`). */
const CREATE_PATH = '/services/aigc/text2image/image-synthesis';
const TASK_PATH = '/tasks/';
/** Task states that mean "not yet". */
const RUNNING_STATES = new Set(['PENDING', 'RUNNING', 'SUSPENDED']);
/** Consecutive failed lookups (429, 5xx) tolerated before the request fails. */
const MAX_LOOKUP_FAILURES = 3;
/** Backoff between lookups: 250 ms, doubling, at most 5 s (the vendor allows 20 lookups/s per account). */
const POLL = { firstDelayMs: 250, factor: 2, maxDelayMs: 5_000 };

const INPUT_NEGATIVE_PROMPT = readPath('input.negative_prompt');
const PARAMETERS_NEGATIVE_PROMPT = readPath('parameters.negative_prompt');
const OUTPUT_TASK_ID = readPath('output.task_id');

/** Reads DashScope usage (`usage.input_tokens`/`output_tokens`/`total_tokens`; image tasks report none). */
function readUsage(json: any): Usage | undefined {
  const usage = json?.usage;
  if (!isJsonObject(usage) || (usage.input_tokens === undefined && usage.output_tokens === undefined)) return undefined;
  const input = usage.input_tokens as number | undefined;
  const output = usage.output_tokens as number | undefined;
  return { inputTokens: input, outputTokens: output, totalTokens: (usage.total_tokens as number | undefined) ?? (input ?? 0) + (output ?? 0) };
}

/** DashScope's native protocol: flat `{code, message, request_id}` errors, asynchronous image tasks. */
export const dashscopeAdapter: ProtocolAdapter = {
  protocol: 'dashscope',
  passthrough: {},
  requestHeaders: [],
  readUsage,
  readError(status, body) {
    if (isJsonObject(body) && typeof body.code === 'string') return { code: body.code, message: String(body.message ?? '') };
    return { code: `http_${status}`, message: `vendor answered ${status}` };
  },
};

/** The spec's shape B puts `negative_prompt` in `parameters`; Wan reads it from `input`. */
export function toDashScopeImageBody(body: JsonObject): JsonObject {
  const negative = getAt(body, PARAMETERS_NEGATIVE_PROMPT);
  if (negative === undefined || getAt(body, INPUT_NEGATIVE_PROMPT) !== undefined) return body;
  return setAt(deleteAt(body, PARAMETERS_NEGATIVE_PROMPT), INPUT_NEGATIVE_PROMPT, negative);
}

/** The error of a task (or one of its images) that ended with `code`/`message`. */
export function toTaskError(vendor: RuntimeVendor, code: unknown, message: unknown): GatewayError {
  const text = typeof message === 'string' && message ? message : 'The image task failed.';
  if (typeof code === 'string' && vendor.config.policyErrorCodes.includes(code)) {
    return new GatewayError(400, 'content_policy_violation', text);
  }
  if (typeof code === 'string' && code.startsWith('Invalid')) return new GatewayError(400, code, text);
  return new GatewayError(502, 'upstream_task_failed', `Vendor "${vendor.config.name}" failed the image task (${String(code ?? 'no code')}): ${text}`);
}

async function readJson(response: VendorResponse, vendor: RuntimeVendor): Promise<JsonObject> {
  try {
    const json = await response.body.json();
    if (isJsonObject(json)) return json;
  } catch {
    // answered below
  }
  throw new GatewayError(502, 'upstream_bad_response', `Vendor "${vendor.config.name}" answered with a body that is not a JSON object.`);
}

/** Creates the task (`X-DashScope-Async: enable`) and answers its id. */
async function createTask(call: OpCall, body: JsonObject): Promise<string> {
  const response = await call.callVendor({
    method: 'POST',
    path: CREATE_PATH,
    headers: { 'content-type': 'application/json', 'x-dashscope-async': 'enable' },
    body: JSON.stringify(toDashScopeImageBody(body)),
  });
  if (response.status >= 400) throw toVendorError(call.vendor, response.status, (await readErrorBody(response)).json);
  const json = await readJson(response, call.vendor);
  const taskId = getAt(json, OUTPUT_TASK_ID);
  if (typeof taskId !== 'string' || !taskId) {
    throw new GatewayError(502, 'upstream_bad_response', `Vendor "${call.vendor.config.name}" created no image task.`);
  }
  return taskId;
}

/** One lookup: the task's `output` once it has ended, undefined while it runs or after a transient failure. */
async function lookUpTask(call: OpCall, taskId: string, failures: { count: number }): Promise<JsonObject | undefined> {
  const response = await call.callVendor({ method: 'GET', path: TASK_PATH + encodeURIComponent(taskId) });
  if (response.status >= 400) {
    const { json } = await readErrorBody(response);
    const transient = response.status === 429 || response.status >= 500;
    if (transient && ++failures.count < MAX_LOOKUP_FAILURES) return undefined;
    throw toVendorError(call.vendor, response.status, json);
  }
  failures.count = 0;
  const output = (await readJson(response, call.vendor)).output;
  if (!isJsonObject(output) || typeof output.task_status !== 'string') {
    throw new GatewayError(502, 'upstream_bad_response', `Vendor "${call.vendor.config.name}" answered a task lookup without a status.`);
  }
  return RUNNING_STATES.has(output.task_status) ? undefined : output;
}

/** The images of an ended task; failed images are left out while at least one succeeded. */
function readTaskImages(vendor: RuntimeVendor, taskId: string, output: JsonObject): ImageDatum[] {
  const status = output.task_status;
  if (status === 'FAILED') throw toTaskError(vendor, output.code, output.message);
  if (status !== 'SUCCEEDED') {
    throw new GatewayError(502, 'upstream_task_failed', `Vendor "${vendor.config.name}" reports image task ${taskId} as ${String(status)}.`);
  }
  const results = Array.isArray(output.results) ? output.results.filter(isJsonObject) : [];
  const images = results.filter((result) => typeof result.url === 'string');
  if (images.length === 0) {
    const failed = results.find((result) => result.code !== undefined);
    throw failed ? toTaskError(vendor, failed.code, failed.message) : toTaskError(vendor, undefined, 'The task answered no images.');
  }
  return images.map((result) => ({
    url: result.url as string,
    ...(typeof result.actual_prompt === 'string' ? { revised_prompt: result.actual_prompt } : {}),
  }));
}

/**
 * DashScope Wan text-to-image: creates the task, polls `GET /tasks/{id}` with backoff until it ends or
 * the model's `poll_timeout` (within the request's deadline) passes, and answers the URLs with
 * `actual_prompt` as `revised_prompt`. URLs only: base64 is the gateway's job.
 */
export const dashscopeImageBackend: ImageBackend = {
  urlOnly: true,
  async generate(call: OpCall, body: JsonObject, signal: AbortSignal): Promise<ImageBatch> {
    const taskId = await createTask(call, body);
    const pollTimeoutMs = call.model.images?.pollTimeoutMs ?? 300_000;
    const deadline = Math.min(call.ctx.deadline, Date.now() + pollTimeoutMs);
    const failures = { count: 0 };
    const output = await pollWithBackoff(
      () => lookUpTask(call, taskId, failures),
      { ...POLL, deadline, signal },
      () => new GatewayError(504, 'upstream_timeout', `Image task ${taskId} of vendor "${call.vendor.config.name}" did not finish in time.`),
    );
    return { created: Math.floor(Date.now() / 1000), data: readTaskImages(call.vendor, taskId, output), extras: {} };
  },
};
