import type { ServerResponse } from 'node:http';
import { createMissingParamError, createOpenAIError, INVALID_JSON_ERROR } from './errors.ts';
import type { OpenAIState } from './state.ts';
import { readJson, sendJson, type SimRequest } from '../../../simulators/sim-server.ts';
import { countTokens, createEmbedding, encodeEmbeddingBase64, isObject, readText } from '../../../simulators/text.ts';

const SPACES = /\s+/;

/** Moderation categories of the OpenAI API reference (SDK `Moderation.Categories`). */
const CATEGORIES = [
  'harassment', 'harassment/threatening', 'hate', 'hate/threatening', 'illicit', 'illicit/violent', 'self-harm',
  'self-harm/instructions', 'self-harm/intent', 'sexual', 'sexual/minors', 'violence', 'violence/graphic',
];

/** The texts of an `input` that is a string, a list of strings, or token arrays (joined by spaces). */
function readInputs(input: unknown): string[] {
  if (typeof input === 'string') return [input];
  if (!Array.isArray(input)) return [];
  if (input.length > 0 && typeof input[0] === 'number') return [input.join(' ')];
  return input.map((item) => (typeof item === 'string' ? item : Array.isArray(item) ? item.join(' ') : readText([item])));
}

/**
 * POST /v1/embeddings (fixtures/openai/embeddings-*.json). Vectors are deterministic per text,
 * `dimensions` long (default 1536); `encoding_format: "base64"` (the SDK's default) sends
 * little-endian float32 bytes in base64, the same values as the float form.
 */
export function handleEmbeddings(_state: OpenAIState, req: SimRequest, res: ServerResponse): void {
  const body = readJson(req.body);
  if (!isObject(body)) return sendJson(res, 400, INVALID_JSON_ERROR);
  if (typeof body.model !== 'string') return sendJson(res, 400, createMissingParamError('model'));
  if (body.input === undefined) return sendJson(res, 400, createMissingParamError('input'));
  const texts = readInputs(body.input);
  const dims = typeof body.dimensions === 'number' ? body.dimensions : 1536;
  const base64 = body.encoding_format === 'base64';
  const data = texts.map((text, index) => {
    const values = createEmbedding(text, dims);
    return { object: 'embedding', index, embedding: base64 ? encodeEmbeddingBase64(values) : Array.from(values) };
  });
  const tokens = texts.reduce((n, t) => n + countTokens(t), 0);
  sendJson(res, 200, { object: 'list', data, model: body.model, usage: { prompt_tokens: tokens, total_tokens: tokens } });
}

/**
 * POST /v1/moderations. No fixture; the shape follows the OpenAI API reference (`ModerationCreateResponse`).
 * An input containing `forbidden` is flagged for `violence` (score 0.97); everything else is clean.
 */
export function handleModerations(state: OpenAIState, req: SimRequest, res: ServerResponse): void {
  const body = readJson(req.body);
  if (!isObject(body)) return sendJson(res, 400, INVALID_JSON_ERROR);
  if (body.input === undefined) return sendJson(res, 400, createMissingParamError('input'));
  const texts = Array.isArray(body.input) && isObject(body.input[0]) ? [readText(body.input)] : readInputs(body.input);
  const results = texts.map((text) => {
    const flagged = text.includes('forbidden');
    const categories: Record<string, boolean> = {};
    const scores: Record<string, number> = {};
    const applied: Record<string, string[]> = {};
    for (const name of CATEGORIES) {
      categories[name] = flagged && name === 'violence';
      scores[name] = categories[name] ? 0.97 : 0.0001;
      applied[name] = ['text'];
    }
    return { flagged, categories, category_scores: scores, category_applied_input_types: applied };
  });
  sendJson(res, 200, { id: `modr-${state.nextId()}`, model: body.model ?? 'omni-moderation-latest', results });
}

/**
 * POST /v1/rerank. OpenAI has no rerank endpoint; this follows the Jina / Cohere rerank API:
 * `{model, query, documents, top_n?, return_documents?}` -> `{id, model, results:[{index,
 * relevance_score, document?}], usage:{total_tokens}}`. Score = share of query words found in the
 * document; results sorted best first (ties by index), cut to top_n.
 */
export function handleRerank(state: OpenAIState, req: SimRequest, res: ServerResponse): void {
  const body = readJson(req.body);
  if (!isObject(body)) return sendJson(res, 400, INVALID_JSON_ERROR);
  if (typeof body.query !== 'string') return sendJson(res, 400, createMissingParamError('query'));
  if (!Array.isArray(body.documents)) return sendJson(res, 400, createMissingParamError('documents'));
  if (body.top_n !== undefined && (!Number.isInteger(body.top_n) || body.top_n < 1)) {
    return sendJson(res, 400, createOpenAIError("Invalid 'top_n': must be a positive integer.", 'invalid_request_error', 'top_n'));
  }
  const queryWords = new Set(body.query.toLowerCase().split(SPACES).filter(Boolean));
  const docs: string[] = body.documents.map((d: unknown) => (typeof d === 'string' ? d : readText([d])));
  const scored = docs.map((text, index) => {
    const words = new Set(text.toLowerCase().split(SPACES).filter(Boolean));
    let hits = 0;
    for (const w of queryWords) if (words.has(w)) hits++;
    const relevance_score = queryWords.size === 0 ? 0 : Math.round((hits / queryWords.size) * 1e4) / 1e4;
    return body.return_documents === true ? { index, relevance_score, document: { text } } : { index, relevance_score };
  });
  scored.sort((a, b) => b.relevance_score - a.relevance_score || a.index - b.index);
  const tokens = countTokens(body.query) * Math.max(1, docs.length) + docs.reduce((n, d) => n + countTokens(d), 0);
  sendJson(res, 200, { id: `rerank-${state.nextId()}`, model: body.model ?? null, results: scored.slice(0, body.top_n ?? scored.length), usage: { total_tokens: tokens } });
}
