import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { anthropicAdapter } from '../../src/protocols/anthropic/index.ts';
import { geminiAdapter } from '../../src/protocols/gemini/index.ts';
import { openaiAdapter } from '../../src/protocols/openai/index.ts';
import { addUsage, findUsageObject, looksLikeJson, readUsageFromJson } from '../../src/runtime/json-usage.ts';
import { VENDOR_FIXTURES } from '../helpers/vendor-fixtures.ts';

const fixture = (name: string) => readFileSync(`${VENDOR_FIXTURES}/${name}`);

describe('reading usage from a whole JSON answer without parsing it all', () => {
  it.each([
    ['openai/chat-response.json', openaiAdapter],
    ['anthropic/messages-response.json', anthropicAdapter],
    ['gemini/generateContent-response.json', geminiAdapter],
    ['openai/responses-response.json', openaiAdapter],
    ['openai/embeddings-response.json', openaiAdapter],
  ] as const)('%s gives the same usage as a full parse', (name, adapter) => {
    const body = fixture(name);
    expect(readUsageFromJson(body, adapter)).toEqual(adapter.readUsage(JSON.parse(body.toString())));
    expect(readUsageFromJson(body, adapter)?.inputTokens).toBeGreaterThan(0);
  });

  it('ignores a "usage" key that only appears inside a string', () => {
    const body = Buffer.from(JSON.stringify({ choices: [{ message: { content: 'the "usage": {"prompt_tokens": 9} text' } }] }));
    expect(readUsageFromJson(body, openaiAdapter)).toBeUndefined();
  });

  it('tells JSON framing from garbage', () => {
    expect(looksLikeJson(Buffer.from(' {"a":1}\n'))).toBe(true);
    expect(looksLikeJson(Buffer.from('[1]'))).toBe(true);
    expect(looksLikeJson(Buffer.from('<html>oops</html>'))).toBe(false);
    expect(looksLikeJson(Buffer.from('{"a":'))).toBe(false);
  });
});

describe('finding the first usage object in stream bytes', () => {
  it('skips usage fields that are null and points at the first one holding an object', () => {
    const text = 'data: {"usage":null}\n\ndata: {"usage" : {"total_tokens":3}}\n\ndata: {"usage":{"total_tokens":4}}\n\n';
    expect(findUsageObject(Buffer.from(text), openaiAdapter)).toBe(text.indexOf('"usage" : {'));
  });

  it('answers -1 when no usage object is there', () => {
    expect(findUsageObject(Buffer.from('data: {"usage":null,"x":"usage"}\n\n'), openaiAdapter)).toBe(-1);
  });

  it('looks only between its bounds: a field whose object starts past the end is no usage object there', () => {
    const text = 'data: {"usage"\n: {"total_tokens":3}}\ndata: {"usage":{"total_tokens":4}}\n';
    const bytes = Buffer.from(text);
    const lineEnd = text.indexOf('\n');
    expect(findUsageObject(bytes, openaiAdapter)).toBe(text.indexOf('"usage"'));
    expect(findUsageObject(bytes, openaiAdapter, 0, lineEnd)).toBe(-1);
    expect(findUsageObject(bytes, openaiAdapter, lineEnd + 1)).toBe(text.lastIndexOf('"usage"'));
  });
});

describe('adding a vendor report to the request usage', () => {
  it('keeps whole token counts and fractional audio seconds, and ignores malformed values', () => {
    const usage = {};
    addUsage(usage, { inputTokens: 12, outputTokens: -1, totalTokens: 1.5, audioSeconds: 3.25 });
    addUsage(usage, { reasoningTokens: '4' as never, audioSeconds: Number.POSITIVE_INFINITY });
    expect(usage).toEqual({ inputTokens: 12, audioSeconds: 3.25 });
  });
});
