import { LISTED_MODEL_CREATED } from '../listing-time.ts';
import type { ListedModel, StyleFacts } from '../style-types.ts';
import { writeOpenAIErrorBody } from './error-body.ts';

function writeModel(model: ListedModel): object {
  return { id: model.id, object: 'model', created: LISTED_MODEL_CREATED, owned_by: model.ownedBy };
}

/**
 * The OpenAI style (the OpenAI SDK): `Authorization: Bearer` only (browser WebSockets carry the key
 * as an `openai-insecure-api-key.` subprotocol); stream errors are a plain `data:` frame.
 */
export const openaiStyle: StyleFacts = {
  keyHint: '"Authorization: Bearer <key>"',
  subprotocolKeyPrefix: 'openai-insecure-api-key.',
  writeErrorBody: writeOpenAIErrorBody,
  writeStreamErrorFrame: (json) => `data: ${json}\n\n`,
  writeModelList: (models) => ({ object: 'list', data: models.map(writeModel) }),
  writeModel,
  writeChatTurn: (model, prompt, stream, secret) => ({
    path: '/v1/chat/completions',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` },
    body: { model, stream, messages: [{ role: 'user', content: prompt }] },
  }),
  securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
};
