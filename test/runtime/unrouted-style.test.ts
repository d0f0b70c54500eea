import { describe, expect, it } from 'vitest';
import { config } from '../../generated/config.ts';
import type { RouteEntry } from '../../src/config/types.ts';
import { createUnroutedStyle } from '../../src/runtime/unrouted-style.ts';

const styleOf = createUnroutedStyle(config.routes);

describe('the error style of a path no route matched, from the route table', () => {
  it.each([
    ['/v1beta/models/gemini-2.5-flash:unknownMethod', 'gemini'],
    ['/v1beta/cachedContents', 'gemini'],
    ['/v1/messages/batches', 'anthropic'],
    ['/v1/messages/count_tokens/extra', 'anthropic'],
    ['/v1/chat/completions/extra', 'openai'],
    ['/v1/nothing-here', 'openai'],
    ['/', 'openai'],
    ['/elsewhere', 'openai'],
  ])('%s answers in the %s style', (path, style) => {
    expect(styleOf(path)).toBe(style);
  });

  it('follows the table, not fixed prefixes: a messages route moved under /anthropic makes /anthropic/... answer in its style', () => {
    const route = (path: string, style: RouteEntry['style']) => ({ method: 'POST', path, style }) as RouteEntry;
    const moved = createUnroutedStyle([route('/v1/chat/completions', 'openai'), route('/anthropic/v1/messages', 'anthropic'), route('/google/v1beta/models/{model}:generateContent', 'gemini')]);
    expect(moved('/anthropic/v1/other')).toBe('anthropic');
    expect(moved('/google/v1beta/models/x:other')).toBe('gemini');
    expect(moved('/v1/messages')).toBe('openai');
  });

  it('breaks a tie without the default style by name, the same way every time', () => {
    const route = (path: string, style: RouteEntry['style']) => ({ method: 'POST', path, style }) as RouteEntry;
    const tied = createUnroutedStyle([route('/x/a', 'gemini'), route('/x/b', 'anthropic')]);
    expect(tied('/x/c')).toBe('anthropic');
  });
});
