import { GatewayError } from '../errors.ts';
import type { OpCall } from '../runtime/types.ts';
import { readAnswerJson } from '../runtime/read-answer-json.ts';
import { readErrorBody, redactVendorGatewayError, toVendorError } from '../runtime/vendor-error.ts';
import type { JsonObject } from '../transforms/path.ts';
import { pollWithBackoff } from './poll.ts';
import type { ImageBackend, ImageBatch, ImageDatum, ImageTaskProtocol, ImageTaskState } from './types.ts';

/** Consecutive failed lookups (429, 5xx) tolerated before the request fails. */
export const MAX_LOOKUP_FAILURES = 3;

async function createTask(call: OpCall, tasks: ImageTaskProtocol, body: JsonObject): Promise<string> {
  const response = await call.callVendor(tasks.createRequest(body));
  if (response.status >= 400) throw toVendorError(call.vendor, response.status, (await readErrorBody(response)).json);
  const taskId = tasks.readTaskId(await readAnswerJson(call.vendor, response));
  if (!taskId) throw new GatewayError(502, 'upstream_invalid_response', `Vendor "${call.vendor.config.name}" created no image task.`);
  return taskId;
}

/** One lookup: the images once the task has ended, undefined while it runs or after a transient failure. */
async function lookUpTask(call: OpCall, tasks: ImageTaskProtocol, taskId: string, failures: { count: number }): Promise<ImageDatum[] | undefined> {
  const response = await call.callVendor(tasks.lookupRequest(taskId));
  if (response.status >= 400) {
    const { json } = await readErrorBody(response);
    const transient = response.status === 429 || response.status >= 500;
    if (transient && ++failures.count < MAX_LOOKUP_FAILURES) return undefined;
    throw toVendorError(call.vendor, response.status, json);
  }
  failures.count = 0;
  const json = await readAnswerJson(call.vendor, response);
  let state: ImageTaskState;
  try {
    state = tasks.readTask(json, call.vendor.config, taskId);
  } catch (error) {
    throw redactVendorGatewayError(call.vendor, error);
  }
  return state.done ? state.data : undefined;
}

/**
 * An image backend for vendors with asynchronous tasks: creates the task, looks it up with backoff
 * until it ends or the model's `poll_timeout` (within the request's deadline) passes, and answers its
 * images. A few failed lookups in a row (429, 5xx) are waited out; `signal` stops the polling.
 * These vendors answer URLs only: base64 is the gateway's job.
 */
export function createTaskImageBackend(tasks: ImageTaskProtocol): ImageBackend {
  return {
    urlOnly: true,
    async generate(call: OpCall, body: JsonObject, signal: AbortSignal): Promise<ImageBatch> {
      const taskId = await createTask(call, tasks, body);
      const pollTimeoutMs = call.model.images?.pollTimeoutMs ?? 300_000;
      const deadline = Math.min(call.ctx.deadline, Date.now() + pollTimeoutMs);
      const failures = { count: 0 };
      const data = await pollWithBackoff(
        () => lookUpTask(call, tasks, taskId, failures),
        { ...tasks.poll, deadline, signal },
        () => new GatewayError(504, 'upstream_timeout', `Image task ${taskId} of vendor "${call.vendor.config.name}" did not finish in time.`),
      );
      return { created: Math.floor(Date.now() / 1000), data, extras: {} };
    },
  };
}
