import type { NativeGateway } from './start-native-gateway.ts';

/** The gateway paths of gateway.yaml's DashScope video entries. */
export const DASHSCOPE_SUBMIT = '/dashscope/api/v1/services/aigc/video-generation/video-synthesis';
export const DASHSCOPE_TASKS = '/dashscope/api/v1/tasks/';

/** A DashScope text-to-video request body (as in the fixture transcript). */
export const VIDEO_REQUEST = { model: 'wan2.2-t2v-plus', input: { prompt: 'a kitten running under the moon' }, parameters: { size: '1920*1080', prompt_extend: true } };

/** Submits a video task through the gateway as a DashScope client does (async header set); `body` may be raw text. */
export async function submitVideo(gw: NativeGateway, body: unknown, key = gw.key, headers: Record<string, string> = {}) {
  const response = await fetch(gw.url + DASHSCOPE_SUBMIT, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-dashscope-async': 'enable', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, json: (await response.json()) as any };
}

/** Looks a task up through the gateway. */
export async function lookupTask(gw: NativeGateway, id: string, key = gw.key) {
  const response = await fetch(gw.url + DASHSCOPE_TASKS + id, { headers: { authorization: `Bearer ${key}` } });
  return { status: response.status, json: (await response.json()) as any };
}

/** The vendor's own task id inside a signed gateway task id (its payload is base64url JSON, signed not hidden). */
export function readVendorTaskId(id: string): string {
  return JSON.parse(Buffer.from(id.slice('task_'.length, id.indexOf('.')), 'base64url').toString())[1];
}
