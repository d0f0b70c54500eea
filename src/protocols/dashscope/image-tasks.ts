import type { VendorEntry } from '../../config/types.ts';
import { GatewayError } from '../../errors.ts';
import { deleteAt, getAt, isJsonObject, readPath, setAt, type JsonObject } from '../../transforms/path.ts';
import type { ImageDatum, ImageTaskProtocol, ImageTaskState } from '../types.ts';
import { toText } from '../../lib/to-text.ts';

/** Where Wan text-to-image tasks are created and looked up (relative to `.../api/v1`). */
const CREATE_PATH = '/services/aigc/text2image/image-synthesis';
const TASK_PATH = '/tasks/';
/** Task states that mean "not yet". */
const RUNNING_STATES = new Set(['PENDING', 'RUNNING', 'SUSPENDED']);

const INPUT_NEGATIVE_PROMPT = readPath('input.negative_prompt');
const PARAMETERS_NEGATIVE_PROMPT = readPath('parameters.negative_prompt');
const OUTPUT_TASK_ID = readPath('output.task_id');

/** The spec's shape B puts `negative_prompt` in `parameters`; Wan reads it from `input`. */
export function toDashScopeImageBody(body: JsonObject): JsonObject {
  const negative = getAt(body, PARAMETERS_NEGATIVE_PROMPT);
  if (negative === undefined || getAt(body, INPUT_NEGATIVE_PROMPT) !== undefined) return body;
  return setAt(deleteAt(body, PARAMETERS_NEGATIVE_PROMPT), INPUT_NEGATIVE_PROMPT, negative);
}

/** The error of a task (or one of its images) that ended with `code`/`message`. */
export function toTaskError(vendor: VendorEntry, code: unknown, message: unknown): GatewayError {
  const text = typeof message === 'string' && message ? message : 'The image task failed.';
  if (typeof code === 'string' && vendor.policyErrorCodes.includes(code)) return new GatewayError(400, 'content_policy_violation', text);
  if (typeof code === 'string' && code.startsWith('Invalid')) return new GatewayError(400, code, text);
  return new GatewayError(502, 'upstream_task_failed', `Vendor "${vendor.name}" failed the image task (${toText(code ?? 'no code')}): ${text}`);
}

/** The images of a SUCCEEDED task; failed images are left out while at least one succeeded. */
function readTaskImages(vendor: VendorEntry, output: JsonObject): ImageDatum[] {
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

function readTask(json: unknown, vendor: VendorEntry, taskId: string): ImageTaskState {
  const output = isJsonObject(json) ? json.output : undefined;
  if (!isJsonObject(output) || typeof output.task_status !== 'string') {
    throw new GatewayError(502, 'upstream_invalid_response', `Vendor "${vendor.name}" answered a task lookup without a status.`);
  }
  const status = output.task_status;
  if (RUNNING_STATES.has(status)) return { done: false };
  if (status === 'SUCCEEDED') return { done: true, data: readTaskImages(vendor, output) };
  if (status === 'FAILED') throw toTaskError(vendor, output.code, output.message);
  throw new GatewayError(502, 'upstream_task_failed', `Vendor "${vendor.name}" reports image task ${taskId} as ${status}.`);
}

/**
 * Wan text-to-image as asynchronous tasks: create with `X-DashScope-Async: enable`, look up at
 * `GET /tasks/{id}` (250 ms, doubling, at most 5 s apart: the vendor allows 20 lookups/s per account),
 * `actual_prompt` answered as `revised_prompt`. FAILED maps to the policy error or the task's own error.
 */
export const dashscopeImageTasks: ImageTaskProtocol = {
  poll: { firstDelayMs: 250, factor: 2, maxDelayMs: 5_000 },
  createRequest: (body) => ({
    method: 'POST',
    path: CREATE_PATH,
    headers: { 'content-type': 'application/json', 'x-dashscope-async': 'enable' },
    body: JSON.stringify(toDashScopeImageBody(body)),
  }),
  readTaskId(json) {
    const taskId = getAt(json, OUTPUT_TASK_ID);
    return typeof taskId === 'string' && taskId ? taskId : undefined;
  },
  lookupRequest: (taskId) => ({ method: 'GET', path: TASK_PATH + encodeURIComponent(taskId) }),
  readTask,
};
