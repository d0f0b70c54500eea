import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { anthropicAdapter } from '../../src/protocols/anthropic/index.ts';
import { geminiAdapter } from '../../src/protocols/gemini/index.ts';
import { openaiAdapter } from '../../src/protocols/openai/index.ts';
import type { ProtocolAdapter } from '../../src/protocols/types.ts';
import { StreamTap } from '../../src/runtime/stream-tap.ts';
import type { Usage } from '../../src/runtime/types.ts';
import { VENDOR_FIXTURES } from '../helpers/vendor-fixtures.ts';

const fixture = (name: string) => readFileSync(`${VENDOR_FIXTURES}/${name}`).toString();

/** Runs text through a tap cut into pieces of `size` bytes; returns what the client gets and the usage read. */
function tapText(text: string, adapter: ProtocolAdapter, drop: boolean, size: number) {
  const usage: Usage = {};
  const tap = new StreamTap(adapter, usage, drop);
  const bytes = Buffer.from(text);
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(tap.push(bytes.subarray(i, i + size)));
  out.push(tap.end());
  return { text: Buffer.concat(out).toString(), usage };
}

const usageChunk = (text: string, mark: string) => text.split(/\r?\n\r?\n/).filter((e) => e.includes(mark)).at(-1)!;

describe('the stream tap between vendor and client', () => {
  const openai = fixture('openai/chat-stream.sse');

  it.each([1, 7, 64, 100_000])('passes every byte through and reads the usage chunk, in pieces of %i bytes', (size) => {
    const { text, usage } = tapText(openai, openaiAdapter, false, size);
    expect(text).toBe(openai);
    expect(usage).toEqual(openaiAdapter.readUsage(JSON.parse(usageChunk(openai, '"usage":{').slice('data: '.length))));
    expect(usage.totalTokens).toBeGreaterThan(0);
  });

  it.each([1, 13, 100_000])('drops the usage-only event and the null usage fields the gateway asked for, in pieces of %i bytes', (size) => {
    const { text, usage } = tapText(openai, openaiAdapter, true, size);
    // What OpenAI sends without include_usage: no usage chunk, and no `"usage":null` in the others.
    const withoutUsage = openai
      .split('\n\n')
      .filter((event) => !event.includes('"choices":[]'))
      .join('\n\n')
      .replaceAll(',"usage":null', '');
    expect(openai.split(',"usage":null').length - 1).toBe(11);
    expect(text).toBe(withoutUsage);
    expect(text).toContain('data: [DONE]');
    expect(usage.inputTokens).toBeGreaterThan(0);
  });

  it('drops a usage-only event framed with CRLF', () => {
    const crlf = openai.replace(/\n/g, '\r\n');
    const { text } = tapText(crlf, openaiAdapter, true, 9);
    expect(text).not.toContain('"choices":[]');
    expect(text.endsWith('data: [DONE]\r\n\r\n')).toBe(true);
  });

  it('keeps an event with empty choices that carries no usage, without the null usage it was asked for', () => {
    const stream = 'data: {"choices":[],"usage":null}\n\ndata: [DONE]\n\n';
    expect(tapText(stream, openaiAdapter, true, 5).text).toBe('data: {"choices":[]}\n\ndata: [DONE]\n\n');
    expect(tapText(stream, openaiAdapter, false, 5).text).toBe(stream);
  });

  it('removes a null usage only where it is a member (after a comma or first), never in a string or a non-null value', () => {
    const lines = [
      'data: {"usage" : null, "choices":[{"delta":{"content":"a,\\"usage\\":null}"}}]}',
      'data: {"choices":[],"x":{"usage":null},"usage":nullish,"y":",","usage":\tnull }',
    ];
    const { text } = tapText(`${lines.join('\n\n')}\n\n`, openaiAdapter, true, 100_000);
    expect(text).toBe('data: {"choices":[{"delta":{"content":"a,\\"usage\\":null}"}}]}\n\ndata: {"choices":[],"x":{"usage":null},"usage":nullish,"y":"," }\n\n');
  });

  it('reads every usage event of a piece that holds a whole stream, and passes the events around them unchanged', () => {
    const stream = [
      'event: ping\ndata: {"type":"ping"}\n\n',
      'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":11,"output_tokens":1}}}\n\n',
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}\n\n',
      'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":6}}\n\n',
      'event: message_stop\ndata: {"type":"message_stop"}\n\n',
    ].join('');
    const { text, usage } = tapText(stream, anthropicAdapter, false, 100_000);
    expect(text).toBe(stream);
    expect(usage).toMatchObject({ inputTokens: 11, outputTokens: 6 });
  });

  it('passes bytes that are not UTF-8 as they are, also in the lines around a usage event it reads', () => {
    const invalid = Buffer.from([0xff, 0xfe, 0xc3]);
    const stream = Buffer.concat([
      Buffer.from('data: {"choices":[{"delta":{"content":"'),
      invalid,
      Buffer.from('"}}]}\n\ndata: {"choices":[],"usage":{"prompt_tokens":2,"completion_tokens":1}}\n\n: '),
      invalid,
      Buffer.from('\ndata: [DONE]\n\n'),
      invalid,
    ]);
    const usage: Usage = {};
    const tap = new StreamTap(openaiAdapter, usage, true);
    const out = Buffer.concat([tap.push(stream), tap.end()]);
    const usageEvent = stream.indexOf('data: {"choices":[],');
    const afterUsage = stream.indexOf('\n\n: ', usageEvent) + 2;
    expect(out.equals(Buffer.concat([stream.subarray(0, usageEvent), stream.subarray(afterUsage)]))).toBe(true);
    expect(usage).toMatchObject({ inputTokens: 2, outputTokens: 1, totalTokens: 3 });
  });

  it('keeps the final Gemini counts from the last CRLF-framed chunk', () => {
    const gemini = fixture('gemini/streamGenerateContent.sse').replace(/\n\n/g, '\r\n\r\n');
    const { text, usage } = tapText(gemini, geminiAdapter, false, 11);
    expect(text).toBe(gemini);
    const last = gemini.split('\r\n\r\n').filter(Boolean).at(-1)!;
    expect(usage).toEqual(geminiAdapter.readUsage(JSON.parse(last.slice('data: '.length))));
  });

  it('cuts a dropped event out of a chunk it owns in place, and copies around it in a chunk it does not', () => {
    const stream = 'data: {"choices":[{"delta":{"content":"a"}}],"usage":null}\n\ndata: {"choices":[],"usage":{"prompt_tokens":2,"completion_tokens":1}}\n\ndata: [DONE]\n\n';
    const expected = stream.replace(/data: \{"choices":\[\],[^\n]*\n\n/, '').replace(',"usage":null', '');
    const shared = Buffer.from(stream);
    expect(new StreamTap(openaiAdapter, {}, true).push(shared).toString()).toBe(expected);
    expect(shared.toString()).toBe(stream);
    const owned = Buffer.from(stream);
    const out = new StreamTap(openaiAdapter, {}, true, undefined, undefined, true).push(owned);
    expect(out.toString()).toBe(expected);
    expect([out.buffer, out.byteOffset]).toEqual([owned.buffer, owned.byteOffset]);
  });

  it('passes a usage event whose counts are objects (a null toString among them) unchanged, and counts nothing from them', () => {
    const stream = 'data: {"choices":[],"usage":{"prompt_tokens":{"toString":null},"completion_tokens":{"valueOf":null}}}\n\ndata: [DONE]\n\n';
    for (const adapter of [openaiAdapter, anthropicAdapter, geminiAdapter]) {
      const { text, usage } = tapText(stream, adapter, false, 7);
      expect(text).toBe(stream);
      expect(usage).toEqual({});
    }
  });
});
