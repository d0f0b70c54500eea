import { describe, expect, it } from 'vitest';
import type { Style } from '../../src/config/types.ts';
import { STYLES } from '../../src/protocols/styles.ts';
import { getAnswerStyle } from '../../src/runtime/request-style.ts';
import type { RequestContext } from '../../src/runtime/types.ts';

const MODELS = Array.from({ length: 5 }, (_, i) => ({ id: `m${i}`, ownedBy: 'acme' }));
const query = (text = '') => () => new URLSearchParams(text);

describe("each style reads the client's key where its SDK sends it", () => {
  it('OpenAI: Authorization only (read by the runtime), so no other header counts', () => {
    expect(STYLES.openai.readKey).toBeUndefined();
    expect(STYLES.openai.subprotocolKeyPrefix).toBe('openai-insecure-api-key.');
  });

  it('Anthropic: x-api-key, recognised anywhere by the anthropic-version header', () => {
    expect(STYLES.anthropic.readKey!({ 'x-api-key': 'sk-a' }, query())).toBe('sk-a');
    expect(STYLES.anthropic.readKey!({ 'x-api-key': '' }, query())).toBeUndefined();
    expect(STYLES.anthropic.sdkHeader).toBe('anthropic-version');
  });

  it('Google: x-goog-api-key first, then ?key=, the query parsed only when the header is absent', () => {
    let parsed = 0;
    const counted = () => (parsed++, new URLSearchParams('key=sk-q'));
    expect(STYLES.gemini.readKey!({ 'x-goog-api-key': 'sk-h' }, counted)).toBe('sk-h');
    expect(parsed).toBe(0);
    expect(STYLES.gemini.readKey!({}, counted)).toBe('sk-q');
    expect(STYLES.gemini.readKey!({}, query())).toBeUndefined();
  });

  it('quotes in the missing-key hint every header it reads', () => {
    expect(STYLES.openai.keyHint).toContain('Authorization: Bearer');
    expect(STYLES.anthropic.keyHint).toContain('x-api-key');
    expect(STYLES.gemini.keyHint).toContain('x-goog-api-key');
    expect(STYLES.gemini.keyHint).toContain('?key=');
  });
});

describe("each style's OpenAPI security schemes name where its SDK sends the key", () => {
  const BEARER = { type: 'http', scheme: 'bearer' };

  it('every style takes a bearer token; Anthropic also x-api-key; Google also x-goog-api-key and ?key=', () => {
    expect(STYLES.openai.securitySchemes).toEqual({ bearer: BEARER });
    expect(STYLES.anthropic.securitySchemes).toEqual({ bearer: BEARER, anthropicKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } });
    expect(STYLES.gemini.securitySchemes).toEqual({
      bearer: BEARER,
      googKey: { type: 'apiKey', in: 'header', name: 'x-goog-api-key' },
      googQuery: { type: 'apiKey', in: 'query', name: 'key' },
    });
  });
});

describe('each style names models its own way', () => {
  it('Google model names drop the models/ prefix; other styles take names as they are', () => {
    expect(STYLES.gemini.readModelName!('models/gemini-2.5-flash')).toBe('gemini-2.5-flash');
    expect(STYLES.gemini.readModelName!('gemini-2.5-flash')).toBe('gemini-2.5-flash');
    expect(STYLES.openai.readModelName).toBeUndefined();
    expect(STYLES.anthropic.readModelName).toBeUndefined();
  });

  it('Google lists in pages of pageSize (clamped to 1..1000) with the next offset as nextPageToken', () => {
    const first = STYLES.gemini.writeModelList(MODELS, new URLSearchParams('pageSize=2')) as any;
    expect(first.models.map((m: any) => m.name)).toEqual(['models/m0', 'models/m1']);
    expect(first.nextPageToken).toBe('2');
    const last = STYLES.gemini.writeModelList(MODELS, new URLSearchParams('pageSize=2&pageToken=4')) as any;
    expect(last.models.map((m: any) => m.name)).toEqual(['models/m4']);
    expect(last).not.toHaveProperty('nextPageToken');
    expect((STYLES.gemini.writeModelList(MODELS, new URLSearchParams('pageSize=0')) as any).models).toHaveLength(5);
    expect((STYLES.gemini.writeModelList(MODELS, new URLSearchParams('pageSize=-3')) as any).models).toHaveLength(1);
  });

  it('OpenAI and Anthropic list every model at once in their SDKs’ shapes', () => {
    expect(STYLES.openai.writeModelList(MODELS.slice(0, 1), new URLSearchParams())).toEqual({
      object: 'list',
      data: [{ id: 'm0', object: 'model', created: 1735689600, owned_by: 'acme' }],
    });
    expect(STYLES.anthropic.writeModelList(MODELS.slice(0, 2), new URLSearchParams())).toEqual({
      data: [
        { type: 'model', id: 'm0', display_name: 'm0', created_at: '2025-01-01T00:00:00.000Z' },
        { type: 'model', id: 'm1', display_name: 'm1', created_at: '2025-01-01T00:00:00.000Z' },
      ],
      has_more: false,
      first_id: 'm0',
      last_id: 'm1',
    });
    expect(STYLES.anthropic.writeModelList([], new URLSearchParams())).toMatchObject({ first_id: null, last_id: null });
    expect(STYLES.anthropic.writeModelList(MODELS, new URLSearchParams())).toMatchObject({ first_id: 'm0', last_id: 'm4' });
  });
});

describe('the style a listing is answered in', () => {
  const ctx = (style: Style, headers: Record<string, string> = {}) => ({ style, req: { headers } }) as unknown as RequestContext;

  it("is the route's style, or on the shared default-style routes the style whose SDK header came", () => {
    expect(getAnswerStyle(ctx('openai'))).toBe('openai');
    expect(getAnswerStyle(ctx('openai', { 'anthropic-version': '2023-06-01' }))).toBe('anthropic');
    expect(getAnswerStyle(ctx('gemini', { 'anthropic-version': '2023-06-01' }))).toBe('gemini');
    expect(getAnswerStyle(ctx('anthropic'))).toBe('anthropic');
  });
});
