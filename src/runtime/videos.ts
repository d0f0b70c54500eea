import { GatewayError } from '../errors.ts';
import { getProtocolAdapter } from '../protocols/index.ts';
import { createPassthrough } from './passthrough.ts';
import type { HandlerSet } from './dispatch-table.ts';
import { rewriteFormField } from './multipart-form.ts';
import { sendJson } from './respond.ts';
import { encodeTaskId } from './task-id.ts';
import { readErrorBody, toVendorError } from './vendor-error.ts';
import { readAnswerJson } from './read-answer-json.ts';
import { isJsonObject } from '../transforms/path.ts';
import type { OpCall } from './types.ts';

type VideoOp = 'videos-create' | 'videos-get' | 'videos-content' | 'videos-delete' | 'videos-remix';

function getEndpoint(call: OpCall, op: VideoOp) {
  const endpoint = getProtocolAdapter(call.vendor.config.protocol).passthrough[op];
  if (!endpoint) {
    throw new GatewayError(501, 'not_implemented', `Video generation is not available for models on ${call.vendor.config.protocol} vendors.`);
  }
  return endpoint;
}

/**
 * The submission sent to the vendor, in the form the client used (the OpenAI video API takes JSON and
 * multipart), the model named as the vendor knows it.
 */
async function buildBody(call: OpCall): Promise<{ body?: string | Buffer; contentType?: string }> {
  if (call.upload) return rewriteFormField(call.upload, call.ctx.req.headers['content-type']!, call.ctx.route.model.name, call.target.upstream);
  if (!call.raw) return {};
  const body = call.body?.model !== undefined && call.body.model !== call.target.upstream ? JSON.stringify({ ...call.body, model: call.target.upstream }) : call.raw;
  return { body, contentType: 'application/json' };
}

/** Calls the vendor's video endpoint and answers its JSON with the task id replaced by a signed gateway id. */
async function forwardTask(call: OpCall, op: Exclude<VideoOp, 'videos-content'>): Promise<void> {
  const endpoint = getEndpoint(call, op);
  const path = endpoint.path.replace('{task_id}', encodeURIComponent(call.ctx.params.task_id ?? ''));
  const { body, contentType } = await buildBody(call);
  const response = await call.callVendor({ method: endpoint.method, path, headers: contentType ? { 'content-type': contentType } : {}, body });
  if (response.status >= 400) throw toVendorError(call.vendor, response.status, (await readErrorBody(response)).json, response.headers);
  // Read whole, as every success is: a task echoes its prompt, which may be longer than an error body's bound.
  const task = (await readAnswerJson(call.vendor, response)) as Record<string, unknown> | null;
  if (!isJsonObject(task) || typeof task.id !== 'string') {
    throw new GatewayError(502, 'upstream_invalid_response', `Vendor "${call.vendor.config.name}" answered without a task id.`);
  }
  const sign = (vendorId: string) => encodeTaskId({ model: call.model.id, task: vendorId, key: call.ctx.key!.config.name }, call.ctx.snapshot.taskSecret);
  const answer: Record<string, unknown> = { ...task, id: sign(task.id) };
  if ('model' in task) answer.model = call.model.id;
  // A remix names its source video: the client knows it by its signed id only.
  if (typeof task.remixed_from_video_id === 'string') answer.remixed_from_video_id = sign(task.remixed_from_video_id);
  sendJson(call.ctx, response.status, answer);
}

/**
 * Video tasks without server-side state: the id a client sees is the vendor's task id signed together with
 * the model and the owning key, so lookups reach the right vendor and no other key can read the task.
 */
/** `/v1/videos`: task submission and lookup bound to the key, and the finished content, for every protocol. */
export const videoHandlers: HandlerSet = {
  features: {
    'videos-create': (call) => forwardTask(call, 'videos-create'),
    'videos-get': (call) => forwardTask(call, 'videos-get'),
    'videos-content': (call) => createPassthrough(getEndpoint(call, 'videos-content'))(call),
    'videos-delete': (call) => forwardTask(call, 'videos-delete'),
    'videos-remix': (call) => forwardTask(call, 'videos-remix'),
  },
};
