import { LISTED_MODEL_CREATED } from '../listing-time.ts';
import type { ListedModel, StyleFacts } from '../style-types.ts';
import { writeAnthropicErrorBody } from './error-body.ts';

function writeModel(model: ListedModel): object {
  return { type: 'model', id: model.id, display_name: model.id, created_at: new Date(LISTED_MODEL_CREATED * 1000).toISOString() };
}

/**
 * The messages style (the Anthropic SDK): `x-api-key`, recognised on shared routes by the
 * `anthropic-version` header its SDK always sends; stream errors are an `event: error` frame.
 */
export const anthropicStyle: StyleFacts = {
  keyHint: '"x-api-key: <key>" or "Authorization: Bearer <key>"',
  readKey(headers) {
    const key = headers['x-api-key'];
    return typeof key === 'string' && key ? key : undefined;
  },
  sdkHeader: 'anthropic-version',
  writeErrorBody: writeAnthropicErrorBody,
  writeStreamErrorFrame: (json) => `event: error\ndata: ${json}\n\n`,
  writeModelList(models) {
    const data = models.map(writeModel) as { id: string }[];
    return { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null };
  },
  writeModel,
  writeChatTurn: (model, prompt, stream, secret) => ({
    path: '/v1/messages',
    headers: { 'content-type': 'application/json', 'x-api-key': secret, 'anthropic-version': '2023-06-01' },
    body: { model, max_tokens: 512, stream, messages: [{ role: 'user', content: prompt }] },
  }),
  securitySchemes: {
    bearer: { type: 'http', scheme: 'bearer' },
    anthropicKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
  },
};
