import type { RecordedRequest } from '../../src/protocols/simulators.ts';

/** A caller style the gateway answers in. */
export type ChatStyle = 'openai' | 'anthropic' | 'gemini';

/** What a client got back from one chat request. */
export interface ChatReply {
  status: number;
  headers: Headers;
  /** The whole body as text (a stream: every byte until it ended). */
  text: string;
  /** The body parsed as JSON (undefined for a stream or a body that is not JSON). */
  json: any;
  /** The stream broke off (the connection failed) instead of ending cleanly. */
  broken: boolean;
}

/** Options of {@link sendChat}. */
export interface ChatOptions {
  style?: ChatStyle;
  key: string;
  model: string;
  stream?: boolean;
  prompt?: string;
  signal?: AbortSignal;
}

function describeRequest(options: ChatOptions): { path: string; headers: Record<string, string>; body: object } {
  const { model, key, stream = false } = options;
  const prompt = options.prompt ?? 'hello there';
  const json = { 'content-type': 'application/json' };
  switch (options.style ?? 'openai') {
    case 'anthropic':
      return {
        path: '/v1/messages',
        headers: { ...json, 'x-api-key': key, 'anthropic-version': '2023-06-01' },
        body: { model, max_tokens: 50, stream, messages: [{ role: 'user', content: prompt }] },
      };
    case 'gemini':
      return {
        path: `/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
        headers: { ...json, 'x-goog-api-key': key },
        body: { contents: [{ role: 'user', parts: [{ text: prompt }] }] },
      };
    default:
      return {
        path: '/v1/chat/completions',
        headers: { ...json, authorization: `Bearer ${key}` },
        body: { model, stream, messages: [{ role: 'user', content: prompt }] },
      };
  }
}

/** Sends one chat request to the gateway at `url` in a caller style and reads the whole answer. */
export async function sendChat(url: string, options: ChatOptions): Promise<ChatReply> {
  const { path, headers, body } = describeRequest(options);
  const response = await fetch(url + path, { method: 'POST', headers, body: JSON.stringify(body), signal: options.signal });
  let text = '';
  let broken = false;
  const decoder = new TextDecoder();
  try {
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) text += decoder.decode(chunk, { stream: true });
  } catch {
    broken = true;
  }
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json, broken };
}

/** The `model` field of each request a simulator received (JSON bodies). */
export function readReceivedModels(received: RecordedRequest[]): string[] {
  return received.map((request) => JSON.parse(request.body.toString('utf8')).model);
}
