/**
 * A signature on a plain text part (generate-content's `thoughtSignature` on a non-thought part, or
 * Google's compatible mode's `extra_content.google.thought_signature` on a message), plain and streamed,
 * reaches every client style in a field the client sends back, and returns on the text to the vendor
 * that made it; any other target gets the text without it.
 */
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import type { ClientAdapter, VendorAdapter } from '../../src/translate/adapter.ts';
import type { CanonicalMessage, ContentPart, TextPart } from '../../src/translate/canonical.ts';
import { anthropicChat } from '../../src/protocols/anthropic/translate/index.ts';
import { geminiChat } from '../../src/protocols/gemini/translate/index.ts';
import { openAIChatAdapter } from '../../src/protocols/openai/chat/index.ts';
import { responsesAdapter } from '../../src/protocols/openai/responses/index.ts';
import { bindSignatures, readReasoningPart } from '../../src/translate/reasoning-parts.ts';
import { getSignatureOrigin, stripForeignReasoning, wrapSignature } from '../../src/translate/reasoning-signature.ts';
import { createFieldPolicy } from '../../src/translate/field-policy.ts';
import { createLenientPolicy, createRequest, decodeStream, META } from './fixtures.ts';
import { readBackTurn } from './reasoning-turns.ts';

const USAGE = { promptTokenCount: 5, candidatesTokenCount: 2, thoughtsTokenCount: 9, totalTokenCount: 16 };
const chunk = (parts: unknown[], last = false) => ({ data: JSON.stringify({ candidates: [{ content: { role: 'model', parts }, ...(last ? { finishReason: 'STOP' } : {}) }], ...(last ? { usageMetadata: USAGE } : {}) }) });
const delta = (value: Record<string, unknown>, finish: string | null = null) => ({ data: JSON.stringify({ id: 'c1', choices: [{ index: 0, delta: value, finish_reason: finish }] }) });

/** A vendor answering `Sunny today.` with the text's signature SIG_T, plain and streamed, as each protocol sends it. */
const VENDORS: Array<{ protocol: string; vendor: VendorAdapter; body: unknown; stream: Array<{ event?: string; data: string }> }> = [
  {
    protocol: 'gemini', vendor: geminiChat,
    body: { candidates: [{ content: { role: 'model', parts: [{ text: 'Sunny today.', thoughtSignature: 'SIG_T' }] }, finishReason: 'STOP' }], usageMetadata: USAGE },
    // The documented streamed shape: the signature in a last chunk with an empty text part.
    stream: [chunk([{ text: 'Sunny ' }]), chunk([{ text: 'today.' }]), chunk([{ text: '', thoughtSignature: 'SIG_T' }], true)],
  },
  {
    protocol: 'openai', vendor: openAIChatAdapter,
    body: { id: 'c1', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'Sunny today.', extra_content: { google: { thought_signature: 'SIG_T' } } } }] },
    stream: [delta({ role: 'assistant', content: 'Sunny ', extra_content: { google: { thought_signature: 'SIG_T' } } }), delta({ content: 'today.' }, 'stop'), { data: '[DONE]' }],
  },
];

const CLIENTS: Array<{ style: string; client: ClientAdapter; text: (answer: any) => string }> = [
  { style: 'chat-completions', client: openAIChatAdapter, text: (a) => a.choices[0].message.content },
  { style: 'messages', client: anthropicChat, text: (a) => a.content.filter((b: any) => b.type === 'text').map((b: any) => b.text).join('') },
  { style: 'generate-content', client: geminiChat, text: (a) => a.candidates[0].content.parts.filter((p: any) => !p.thought).map((p: any) => p.text).join('') },
  { style: 'responses', client: responsesAdapter, text: (a) => a.output.filter((i: any) => i.type === 'message').flatMap((i: any) => i.content.map((c: any) => c.text)).join('') },
];

const origin = (protocol: string) => getSignatureOrigin(protocol, `${protocol}-vendor`);
const options = { model: 'm', policy: createFieldPolicy(false), defaultMaxTokens: 100, fieldNames: {} };

describe.each(VENDORS)('a signed text from a $protocol vendor', ({ protocol, vendor, body, stream }) => {
  describe.each(CLIENTS)('to a $style client', ({ style, client, text }) => {
    test.each([false, true])('stream %s: the client sees only the text and a token, and its turn sent back signs the text again', (streamed) => {
      const meta = { ...META, origin: origin(protocol) };
      const request = createRequest({ stream: streamed });
      let answer: any;
      if (streamed) {
        const encoder = client.createStreamEncoder(meta, request);
        answer = readBackTurn(style, decodeStream(vendor, stream).events.map((event) => encoder.encode(event)).join('') + encoder.end());
      } else {
        answer = client.encodeResponse(vendor.decodeResponse(body), meta, request);
      }
      expect(text(answer)).toBe('Sunny today.');
      expect(JSON.stringify(answer)).not.toContain('SIG_T');
      const turn = client.decodeRequest(appendTurn(style, answer), { policy: createLenientPolicy() }).messages[1];
      expect(turn.content.map((p) => (p.type === 'text' ? p.text : p.type)).join('')).toBe('Sunny today.');
      const signed = turn.content.filter((p): p is TextPart => p.type === 'text' && p.signature !== undefined);
      expect(signed).toEqual([expect.objectContaining({ signature: 'SIG_T', origin: origin(protocol) })]);
      const back = { ...createRequest(), messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'hi' }] }, turn, { role: 'user' as const, content: [{ type: 'text' as const, text: 'more' }] }] };
      const own = vendor.encodeRequest(stripForeignReasoning(back, origin(protocol), false), options).body as any;
      if (protocol === 'gemini') {
        const parts = own.contents[1].parts;
        expect(parts.filter((p: any) => p.thoughtSignature)).toEqual([{ text: expect.any(String), thoughtSignature: 'SIG_T' }]);
        expect(parts.map((p: any) => p.text).join('')).toBe('Sunny today.');
      } else {
        expect(own.messages[1]).toMatchObject({ role: 'assistant', content: 'Sunny today.', extra_content: { google: { thought_signature: 'SIG_T' } } });
      }
      const foreign = stripForeignReasoning(back, getSignatureOrigin('other', 'vendor'), false);
      expect(JSON.stringify(foreign)).not.toContain('SIG_T');
      expect(JSON.stringify(geminiChat.encodeRequest(foreign, options).body)).not.toContain('thoughtSignature');
    });
  });
});

describe('binding a text signature carried in a reasoning block', () => {
  test('it lands on the text before it, or on an empty text when none precedes it', () => {
    const token = wrapSignature({ origin: 'o', signature: 'S', text: true });
    const part = readReasoningPart('', token);
    expect(part).toMatchObject({ forText: true, signature: 'S' });
    expect(bindSignatures([{ type: 'text', text: 'a' }, part])).toEqual([{ type: 'text', text: 'a', signature: 'S', origin: 'o' }]);
    expect(bindSignatures([part, { type: 'text', text: 'b' }])).toEqual([{ type: 'text', text: '', signature: 'S', origin: 'o' }, { type: 'text', text: 'b' }]);
  });

  test('any sequence of parts and text tokens keeps every text and puts each signature on a text', () => {
    const item = fc.oneof(
      fc.string().map((text): ContentPart => ({ type: 'text', text })),
      fc.string().map((signature): ContentPart => readReasoningPart('', wrapSignature({ origin: 'o', signature, text: true }))),
      fc.string().map((text): ContentPart => ({ type: 'reasoning', text })),
    );
    fc.assert(fc.property(fc.array(item, { maxLength: 8 }), (parts) => {
      const bound = bindSignatures(parts);
      const texts = (list: CanonicalMessage['content']) => list.filter((p) => p.type === 'text').map((p) => (p as TextPart).text).join('|');
      expect(bound.some((p) => p.type === 'reasoning' && p.forText)).toBe(false);
      expect(bound.filter((p) => p.type === 'text' && p.signature !== undefined)).toHaveLength(parts.filter((p) => p.type === 'reasoning' && p.forText).length);
      expect(texts(bound).replaceAll('|', '')).toBe(texts(parts).replaceAll('|', ''));
    }));
  });
});

/** The next request of a client that appends the assistant turn it received, then asks more. */
function appendTurn(style: string, answer: any): unknown {
  if (style === 'chat-completions') return { messages: [{ role: 'user', content: 'hi' }, answer.choices[0].message, { role: 'user', content: 'more' }] };
  if (style === 'messages') return { max_tokens: 10, messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: answer.content }, { role: 'user', content: 'more' }] };
  if (style === 'generate-content') return { contents: [{ role: 'user', parts: [{ text: 'hi' }] }, answer.candidates[0].content, { role: 'user', parts: [{ text: 'more' }] }] };
  return { input: [{ role: 'user', content: 'hi' }, ...answer.output, { role: 'user', content: 'more' }] };
}
