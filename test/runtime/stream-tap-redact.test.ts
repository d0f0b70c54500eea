import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { anthropicAdapter } from '../../src/protocols/anthropic/index.ts';
import { geminiAdapter } from '../../src/protocols/gemini/index.ts';
import { openaiAdapter } from '../../src/protocols/openai/index.ts';
import type { ProtocolAdapter } from '../../src/protocols/types.ts';
import { hasErrorField } from '../../src/runtime/json-usage.ts';
import { createRedactor, type Redactor } from '../../src/runtime/redact.ts';
import { StreamTap } from '../../src/runtime/stream-tap.ts';
import { VENDOR_FIXTURES } from '../helpers/vendor-fixtures.ts';

const fixture = (name: string) => readFileSync(`${VENDOR_FIXTURES}/${name}`).toString();
const KEY = 'sk-tap/Secret+key';

/** A redactor of KEY that counts how often it is asked to look at bytes. */
function createCountingRedactor(): Redactor & { calls: number } {
  const redactor = createRedactor([KEY]);
  const counting = {
    ...redactor,
    calls: 0,
    redactBytes(bytes: Buffer) {
      counting.calls++;
      return redactor.redactBytes(bytes);
    },
  };
  return counting;
}

/** Runs text through a tap with `redactor`, cut into pieces of `size` bytes; what the client gets. */
function tapText(text: string, adapter: ProtocolAdapter, redactor: Redactor, size: number): string {
  const tap = new StreamTap(adapter, {}, false, redactor);
  const bytes = Buffer.from(text);
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(tap.push(bytes.subarray(i, i + size)));
  out.push(tap.end());
  return Buffer.concat(out).toString();
}

const LEAK = `bad key Bearer ${KEY}, see https://v.example/?key=${encodeURIComponent(KEY)}`;

describe('secrets in the error events of a passthrough stream', () => {
  it.each([1, 7, 100_000])('redacts the key from an Anthropic error event and keeps every other byte, in pieces of %i bytes', (size) => {
    const stream = fixture('anthropic/messages-stream-error.sse').replace('"message":"Overloaded"', `"message":${JSON.stringify(LEAK)}`);
    const text = tapText(stream, anthropicAdapter, createCountingRedactor(), size);
    expect(text).toBe(stream.replace(LEAK, 'bad key Bearer [redacted], see https://v.example/?key=[redacted]'));
  });

  it.each([
    ['OpenAI', openaiAdapter, `data: {"choices":[{"delta":{"content":"Hi"}}]}\n\ndata: {"error":{"message":${JSON.stringify(LEAK)},"type":"server_error"}}\n\n`],
    ['generate-content', geminiAdapter, `data: {"candidates":[]}\r\n\r\ndata: {"error":{"code":500,"message":${JSON.stringify(LEAK)},"status":"INTERNAL"}}\r\n\r\n`],
    ['Responses', openaiAdapter, `event: error\ndata: {"type":"error","code":"server_error","message":${JSON.stringify(LEAK)}}\n\n`],
  ])('redacts the key from a %s error event, also when it ends the stream without a line break', (_name, adapter, stream) => {
    for (const text of [stream, stream.trimEnd()]) {
      const out = tapText(text, adapter, createCountingRedactor(), 100_000);
      expect(out).not.toContain(KEY);
      expect(out).not.toContain(encodeURIComponent(KEY));
      expect(out).toContain('bad key Bearer [redacted], see https://v.example/?key=[redacted]');
    }
  });

  it.each([
    ['openai/chat-stream.sse', openaiAdapter],
    ['openai/chat-tools-stream.sse', openaiAdapter],
    ['openai/responses-stream.sse', openaiAdapter],
    ['anthropic/messages-stream.sse', anthropicAdapter],
    ['gemini/streamGenerateContent.sse', geminiAdapter],
  ] as const)('does not look for secrets in the successful stream %s (its `"error": null` fields included)', (name, adapter) => {
    const stream = fixture(name);
    const redactor = createCountingRedactor();
    expect(tapText(stream, adapter, redactor, 100_000)).toBe(stream);
    expect(redactor.calls).toBe(0);
  });

  it('does not redact an `"error"` whose `: null` follows a dropped usage event (the bytes sent hold no error)', () => {
    const usage = 'data: {"choices":[],"usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}}\n\n';
    const stream = `data: {"error"\n${usage}: null,"note":"${KEY}"}\n`;
    const redactor = createCountingRedactor();
    const tap = new StreamTap(openaiAdapter, {}, true, redactor, undefined, true);
    expect(tap.push(Buffer.from(stream)).toString()).toBe(stream.replace(usage, ''));
    expect(redactor.calls).toBe(0);
  });

  it('returns the very bytes it was given for complete events without an error (no copy on the hot path)', () => {
    const chunk = Buffer.from('data: {"choices":[{"delta":{"content":"Hi"}}]}\n\n');
    expect(new StreamTap(openaiAdapter, {}, false, createCountingRedactor()).push(chunk)).toBe(chunk);
  });
});

describe('finding an error field in stream bytes', () => {
  it.each(['{"error":{"message":"x"}}', '{"type":"error"}', '{"error" : "boom"}', '{"type": "error", "error": null}', '{"error":', '{"error":nu', '"error"'])('finds %s (cut short too)', (text) => {
    expect(hasErrorField(Buffer.from(text))).toBe(true);
  });

  it.each(['{"error":null}', '{"error" :\n null,"x":1}', '{"text":"say \\"error\\" twice"}', '{"errors":[]}', '"error'])('does not find %s', (text) => {
    expect(hasErrorField(Buffer.from(text))).toBe(false);
  });
});
