/** The chat stream decoder reads text chunks in place: the same events as a full parse, and any other chunk is parsed. */
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { createOpenAIChatStreamDecoder } from '../../../src/protocols/openai/chat/stream.ts';
import { createSseParser, type SseEvent } from '../../../src/sse/parse.ts';
import { readTextChunk, readTextChunkHead } from '../../../src/protocols/openai/chat/read-text-chunk.ts';

const FIRST = '{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o","service_tier":"default","system_fingerprint":"fp_1","choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}],"usage":null}';
const HEAD = '{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o","service_tier":"default","system_fingerprint":"fp_1","choices":[';

/** The events (or the error) of `data` after the stream's first chunk, decoded in place and parsed (spaces after commas force the parse). */
function decodeBoth(data: string): [unknown[], unknown[]] {
  const decode = (text: string) => {
    const decoder = createOpenAIChatStreamDecoder();
    decoder.decode({ data: FIRST });
    try {
      return [...decoder.decode({ data: text })];
    } catch (error) {
      return [{ thrown: (error as Error).message }];
    }
  };
  return [decode(data), decode(data.replaceAll(',"', ', "'))];
}

describe('chat stream decoder, text chunks read in place', () => {
  test('the recorded OpenAI stream decodes to the same events as when every chunk is parsed', () => {
    const events: SseEvent[] = [];
    const parser = createSseParser((event) => events.push(event));
    parser.feed(readFileSync('test/fixtures/vendors/openai/chat-stream.sse'));
    parser.end();
    const fast = createOpenAIChatStreamDecoder();
    const parsed = createOpenAIChatStreamDecoder();
    const read = events.flatMap((event) => fast.decode(event));
    expect(read).toEqual(events.flatMap((event) => parsed.decode({ data: event.data === '[DONE]' ? event.data : event.data.replaceAll(',"', ', "') })));
    expect(read.filter((event) => event.type === 'text').length).toBeGreaterThan(3);
  });

  test('any content, with or without null usage and obfuscation, reads as the parse reads it', () => {
    const ending = fc.constantFrom('}', ',"usage":null}', ',"usage":null,"obfuscation":"k3Zq9"}', ',"obfuscation":"a\\"b"}');
    fc.assert(fc.property(fc.string({ unit: 'binary' }), ending, (text, end) => {
      const data = `${HEAD}{"index":0,"delta":{"content":${JSON.stringify(text)}},"logprobs":null,"finish_reason":null}]${end}`;
      expect(readTextChunk(data, readTextChunkHead(FIRST)!)).toBe(text);
      const [fast, parsed] = decodeBoth(data);
      expect(fast).toEqual(parsed);
    }));
  });

  test('chunks that are not plain text chunks are not read in place', () => {
    const head = readTextChunkHead(FIRST)!;
    const misses = [
      `${HEAD}{"index":0,"delta":{"content":"a"},"logprobs":null,"finish_reason":"stop"}]}`,
      `${HEAD}{"index":0,"delta":{"content":"a"},"logprobs":null,"finish_reason":null}],"usage":{"prompt_tokens":1}}`,
      `${HEAD}{"index":0,"delta":{"content":"a"},"logprobs":null,"finish_reason":null}]}x`,
      `${HEAD}{"index":0,"delta":{"content":"a","refusal":null},"logprobs":null,"finish_reason":null}]}`,
      `${HEAD.replace('fp_1', 'fp_2')}{"index":0,"delta":{"content":"a"},"logprobs":null,"finish_reason":null}]}`,
    ];
    for (const data of misses) {
      expect(readTextChunk(data, head)).toBeUndefined();
      const [fast, parsed] = decodeBoth(data);
      expect(fast).toEqual(parsed);
    }
    expect(readTextChunkHead('{"id":"x","usage":null,"choices":[]}')).toBeUndefined();
    expect(readTextChunkHead('{"id":"x","meta":{"a":1},"choices":[]}')).toBeUndefined();
    expect(readTextChunkHead('{"error":{"message":"m"}}')).toBeUndefined();
  });
});
