import type { ListedModel } from '../style-types.ts';

const GENERATION_METHODS = ['generateContent', 'streamGenerateContent', 'countTokens'];

/** One model as `GET /v1beta/models/{model}` answers it. */
export function writeGeminiModel(model: ListedModel): object {
  return { name: `models/${model.id}`, version: '1', displayName: model.id, supportedGenerationMethods: GENERATION_METHODS };
}

/** `GET /v1beta/models`: one page (`pageSize`, default 50, 1..1000; `pageToken`: the offset) and the next token. */
export function writeGeminiModelList(models: ListedModel[], query: URLSearchParams): object {
  const pageSize = Math.min(Math.max(Number(query.get('pageSize')) || 50, 1), 1000);
  const start = Number(query.get('pageToken') ?? 0) || 0;
  const page = models.slice(start, start + pageSize);
  const next = start + pageSize < models.length ? { nextPageToken: String(start + pageSize) } : {};
  return { models: page.map(writeGeminiModel), ...next };
}
