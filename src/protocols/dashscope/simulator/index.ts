import type { ServerResponse } from 'node:http';
import { SIMULATOR_KEY } from './key.ts';
import { TINY_PNG } from '../../../simulators/media.ts';
import { readJson, sendJson, sendText, startSimServer, type SimRequest } from '../../../simulators/sim-server.ts';
import { isObject, toText } from '../../../simulators/text.ts';
import type { Simulator, SimulatorOptions } from '../../../simulators/types.ts';

/** A simulated text-to-image or text-to-video task; its state advances with each query. */
interface Task {
  id: string;
  /** Video synthesis (one `video_url`) instead of images (`results[]`). */
  video?: { size: string; duration: number };
  prompt: string;
  n: number;
  extend: boolean;
  unsafe: boolean;
  polls: number;
  submitted: Date;
}

const STATUS_CODES: Record<number, [string, string]> = {
  400: ['InvalidParameter', 'The request parameter is invalid.'],
  401: ['InvalidApiKey', 'Invalid API-key provided.'],
  403: ['AccessDenied', 'Access denied.'],
  404: ['NotFound', 'Not found.'],
  429: ['Throttling.RateQuota', 'Requests rate limit exceeded, please try again later.'],
  500: ['InternalError', 'An internal error has occured, please try again later or contact service support.'],
};
const STAR_SIZE = /^\d+\*\d+$/;
/** The bytes a finished simulated video URL serves (an MP4 `ftyp` box only). */
const SIM_MP4 = Buffer.from('000000186674797069736f6d0000020069736f6d69736f32', 'hex');
const CREATE_PATH = '/api/v1/services/aigc/text2image/image-synthesis';
const VIDEO_PATH = '/api/v1/services/aigc/video-generation/video-synthesis';
const TASKS_PATH = '/api/v1/tasks/';

/** DashScope's flat error body `{code,message,request_id}` (fixtures/dashscope/error.json). */
export function createDashScopeError(status: number, code?: string, message?: string, requestId = 'sim-error'): unknown {
  const [defaultCode, defaultMessage] = STATUS_CODES[status] ?? (status >= 500 ? STATUS_CODES[500] : STATUS_CODES[400]);
  return { code: code ?? defaultCode, message: message ?? defaultMessage, request_id: requestId };
}

/**
 * Starts a simulated DashScope (Model Studio) API, Wan text-to-image and text-to-video async tasks; `url`
 * is `http://127.0.0.1:P/api/v1`. Tasks are PENDING on the 1st query, RUNNING on the 2nd and finished
 * from the 3rd on (FAILED with DataInspectionFailed when the prompt contains `unsafe-output`).
 */
export async function startDashScopeSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const key = options.key ?? SIMULATOR_KEY;
  const tasks = new Map<string, Task>();
  let seq = 0;
  const uuid = (): string => `00000000-0000-4000-8000-${String(++seq).padStart(12, '0')}`;
  let origin = '';
  const handle = (req: SimRequest, res: ServerResponse): void => {
    if (req.method === 'GET' && req.path.startsWith('/files/')) return serveFile(tasks, req.path, res);
    const requestId = uuid();
    const fail = (status: number, code?: string, message?: string): void => sendJson(res, status, createDashScopeError(status, code, message, requestId));
    const auth = req.headers.authorization;
    if (auth === undefined) return fail(401, 'InvalidApiKey', 'No API-key provided.');
    if (auth !== `Bearer ${key}`) return fail(401);
    if (req.method === 'POST' && req.path === CREATE_PATH) {
      const submitted = readTaskSubmission(req, fail);
      if (!submitted) return;
      const { prompt, params } = submitted;
      if (params.size !== undefined && !STAR_SIZE.test(toText(params.size))) {
        return fail(400, 'InvalidParameter', `The size '${params.size}' is not supported, the size must be in the format of width*height, e.g. 1024*1024.`);
      }
      const n = params.n ?? 4;
      if (!Number.isInteger(n) || n < 1 || n > 4) return fail(400, 'InvalidParameter', 'The n must be an integer between 1 and 4.');
      if (prompt.includes('forbidden')) return fail(400, 'DataInspectionFailed', 'Input data may contain inappropriate content.');
      const task: Task = { id: uuid(), prompt, n, extend: params.prompt_extend !== false, unsafe: prompt.includes('unsafe-output'), polls: 0, submitted: new Date() };
      tasks.set(task.id, task);
      return sendJson(res, 200, { output: { task_status: 'PENDING', task_id: task.id }, request_id: requestId });
    }
    if (req.method === 'POST' && req.path === VIDEO_PATH) return createVideoTask(req, res, tasks, uuid(), requestId, fail);
    if (req.path.startsWith(TASKS_PATH)) {
      const [id, action] = req.path.slice(TASKS_PATH.length).split('/');
      const task = tasks.get(id);
      if (req.method === 'POST' && action === 'cancel') {
        if (task && task.polls === 0) {
          tasks.delete(id);
          return sendJson(res, 200, { request_id: requestId });
        }
        return fail(400, 'UnsupportedOperation', 'Failed to cancel the task, please confirm if the task is in PENDING status.');
      }
      if (req.method === 'GET' && action === undefined) {
        if (!task) return sendJson(res, 200, { request_id: requestId, output: { task_id: id, task_status: 'UNKNOWN' } });
        task.polls++;
        return sendJson(res, 200, describeTask(task, origin, requestId));
      }
    }
    fail(404, 'NotFound', `Not found: ${req.method} ${req.path}`);
  };
  const sim = await startSimServer({ options, basePath: '/api/v1', errorBody: (status) => createDashScopeError(status), handle });
  origin = sim.url.slice(0, -'/api/v1'.length);
  return sim;
}

/**
 * What every asynchronous task submission must carry, checked as DashScope checks it (async header, a JSON
 * body with `model` and `input.prompt`): the prompt and the parameters, or undefined once `fail` answered.
 */
function readTaskSubmission(req: SimRequest, fail: (status: number, code?: string, message?: string) => void): { prompt: string; params: Record<string, any> } | undefined {
  const refuse = (status: number, code: string, message: string): undefined => void fail(status, code, message);
  if (req.headers['x-dashscope-async'] !== 'enable') return refuse(400, 'AccessDenied', 'current user api does not support synchronous calls');
  const body = readJson(req.body);
  if (!isObject(body)) return refuse(400, 'InvalidParameter', 'The request body is not a valid JSON.');
  if (typeof body.model !== 'string') return refuse(400, 'InvalidParameter', 'Model not exist.');
  const prompt = body.input?.prompt;
  if (typeof prompt !== 'string' || prompt === '') return refuse(400, 'InvalidParameter', 'Field required: input.prompt');
  return { prompt, params: isObject(body.parameters) ? body.parameters : {} };
}

/**
 * POST video-synthesis (fixtures/dashscope/video-synthesis-*.json): async only, `model`, `input.prompt`
 * and an optional `parameters.size` written `W*H`; answers the PENDING task.
 */
function createVideoTask(req: SimRequest, res: ServerResponse, tasks: Map<string, Task>, id: string, requestId: string, fail: (status: number, code?: string, message?: string) => void): void {
  const submitted = readTaskSubmission(req, fail);
  if (!submitted) return;
  const { prompt, params } = submitted;
  const size = params.size === undefined ? '1920*1080' : toText(params.size);
  if (!STAR_SIZE.test(size)) return fail(400, 'InvalidParameter', `The size '${size}' is not supported, the size must be in the format of width*height, e.g. 1920*1080.`);
  if (prompt.includes('forbidden')) return fail(400, 'DataInspectionFailed', 'Input data may contain inappropriate content.');
  const video = { size, duration: Number.isInteger(params.duration) ? params.duration : 5 };
  tasks.set(id, { id, video, prompt, n: 1, extend: params.prompt_extend !== false, unsafe: prompt.includes('unsafe-output'), polls: 0, submitted: new Date() });
  sendJson(res, 200, { output: { task_status: 'PENDING', task_id: id }, request_id: requestId });
}

/** A task query body, shaped as fixtures/dashscope/task-query-response-*.json and video-task-query-*.json. */
function describeTask(task: Task, origin: string, requestId: string): unknown {
  const submit = formatTime(task.submitted);
  const scheduled = formatTime(new Date(task.submitted.getTime() + 23));
  if (task.polls === 1) return { request_id: requestId, output: { task_id: task.id, task_status: 'PENDING', submit_time: submit } };
  const base = { task_id: task.id, submit_time: submit, scheduled_time: scheduled };
  if (task.video) return describeVideoTask(task, task.video, base, origin, requestId);
  if (task.polls === 2) {
    return { request_id: requestId, output: { ...base, task_status: 'RUNNING', task_metrics: { TOTAL: task.n, SUCCEEDED: 0, FAILED: 0 } } };
  }
  const end = formatTime(new Date(task.submitted.getTime() + 10820));
  if (task.unsafe) {
    return {
      request_id: requestId,
      output: { ...base, task_status: 'FAILED', end_time: end, code: 'DataInspectionFailed', message: 'Output data may contain inappropriate content.', task_metrics: { TOTAL: task.n, SUCCEEDED: 0, FAILED: task.n } },
    };
  }
  const results = Array.from({ length: task.n }, (_, i) => ({
    orig_prompt: task.prompt,
    ...(task.extend ? { actual_prompt: `${task.prompt}, highly detailed` } : {}),
    url: `${origin}/files/${task.id}-${i}.png?Expires=${Math.floor(task.submitted.getTime() / 1000) + 86400}`,
  }));
  return {
    request_id: requestId,
    output: { ...base, task_status: 'SUCCEEDED', end_time: end, results, task_metrics: { TOTAL: task.n, SUCCEEDED: task.n, FAILED: 0 } },
    usage: { image_count: task.n },
  };
}

/** A video task after its first query: RUNNING, then SUCCEEDED with `video_url` (or FAILED). */
function describeVideoTask(task: Task, video: NonNullable<Task['video']>, base: Record<string, string>, origin: string, requestId: string): unknown {
  if (task.polls === 2) return { request_id: requestId, output: { ...base, task_status: 'RUNNING' } };
  const end = formatTime(new Date(task.submitted.getTime() + 95_000));
  if (task.unsafe) {
    return { request_id: requestId, output: { ...base, task_status: 'FAILED', end_time: end, code: 'DataInspectionFailed', message: 'Output data may contain inappropriate content.' } };
  }
  const expires = Math.floor(task.submitted.getTime() / 1000) + 86400;
  return {
    request_id: requestId,
    output: {
      ...base,
      task_status: 'SUCCEEDED',
      end_time: end,
      video_url: `${origin}/files/${task.id}.mp4?Expires=${expires}`,
      orig_prompt: task.prompt,
      ...(task.extend ? { actual_prompt: `${task.prompt}, cinematic lighting, steady camera` } : {}),
    },
    usage: { video_duration: video.duration, video_count: 1, video_ratio: video.size },
  };
}

/** `YYYY-MM-DD HH:mm:ss.SSS` (no timezone), as DashScope writes times. */
function formatTime(date: Date): string {
  return date.toISOString().replace('T', ' ').slice(0, 23);
}

/** GET /files/<task>-<i>.png or /files/<task>.mp4: the results (no auth, like a signed OSS URL). */
function serveFile(tasks: Map<string, Task>, path: string, res: ServerResponse): void {
  if (path.endsWith('.mp4')) {
    const task = tasks.get(path.slice('/files/'.length, -'.mp4'.length));
    if (!task?.video || task.unsafe || task.polls < 3) return sendText(res, 404, 'Not Found', 'text/plain');
    return sendText(res, 200, SIM_MP4, 'video/mp4');
  }
  const name = path.slice('/files/'.length, -'.png'.length);
  const dash = name.lastIndexOf('-');
  const task = tasks.get(name.slice(0, dash));
  const index = Number(name.slice(dash + 1));
  if (!path.endsWith('.png') || !task || task.unsafe || !(index >= 0 && index < task.n)) return sendText(res, 404, 'Not Found', 'text/plain');
  sendText(res, 200, TINY_PNG, 'image/png');
}
