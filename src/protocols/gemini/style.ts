import type { StyleFacts } from '../style-types.ts';
import { writeGeminiErrorBody } from './error-body.ts';
import { writeGeminiModel, writeGeminiModelList } from './model-list.ts';

const MODEL_PREFIX = 'models/';

/** The generate-content style (the Google Gen AI SDK): `x-goog-api-key` or `?key=`, CRLF-framed streams. */
export const geminiStyle: StyleFacts = {
  keyHint: '"x-goog-api-key: <key>", the "?key=<key>" query parameter, or "Authorization: Bearer <key>"',
  readKey(headers, readQuery) {
    const key = headers['x-goog-api-key'];
    if (typeof key === 'string' && key) return key;
    return readQuery().get('key') ?? undefined;
  },
  writeErrorBody: writeGeminiErrorBody,
  writeStreamErrorFrame: (json) => `data: ${json}\r\n\r\n`,
  writeModelList: writeGeminiModelList,
  writeModel: writeGeminiModel,
  readModelName: (name) => (name.startsWith(MODEL_PREFIX) ? name.slice(MODEL_PREFIX.length) : name),
  writeChatTurn: (model, prompt, stream, secret) => ({
    path: `/v1beta/models/${encodeURIComponent(model)}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
    headers: { 'content-type': 'application/json', 'x-goog-api-key': secret },
    body: { contents: [{ role: 'user', parts: [{ text: prompt }] }] },
  }),
  securitySchemes: {
    bearer: { type: 'http', scheme: 'bearer' },
    googKey: { type: 'apiKey', in: 'header', name: 'x-goog-api-key' },
    googQuery: { type: 'apiKey', in: 'query', name: 'key' },
  },
};
