/** Signature tokens: wrapped with their target, read back, and a damaged or foreign one never crashes or leaks. */
import { describe, expect, test } from 'vitest';
import { anthropicChat } from '../../src/protocols/anthropic/translate/index.ts';
import { openAIChatAdapter } from '../../src/protocols/openai/chat/index.ts';
import { getSignatureOrigin, readSignature, stripForeignReasoning, wrapSignature } from '../../src/translate/reasoning-signature.ts';
import { createLenientPolicy, createRequest } from './fixtures.ts';

describe('reasoning signature tokens', () => {
  test('a token carries the signature, redacted data, call id and origin; wrapping a token again keeps it', () => {
    const origin = getSignatureOrigin('gemini', 'g');
    const token = wrapSignature({ origin, signature: 'SIG', callId: 'call_1' });
    expect(token).toMatch(/^gwr1\.[A-Za-z0-9_-]+$/);
    expect(readSignature(token)).toEqual({ origin, signature: 'SIG', redacted: undefined, callId: 'call_1' });
    expect(wrapSignature({ origin: 'other:o', signature: token })).toBe(token);
    expect(readSignature('bare-vendor-signature')).toEqual({ signature: 'bare-vendor-signature' });
  });

  test('the origin in a token is a digest of the target: no vendor name shows, each target has its own', () => {
    const origin = getSignatureOrigin('bedrock', 'my-private-bedrock');
    expect(origin).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(Buffer.from(wrapSignature({ origin, signature: 'SIG' }).slice(5), 'base64url').toString()).not.toContain('my-private');
    expect(getSignatureOrigin('bedrock', 'my-private-bedrock')).toBe(origin);
    expect(new Set([origin, getSignatureOrigin('anthropic', 'my-private-bedrock'), getSignatureOrigin('bedrock', 'other')]).size).toBe(3);
  });

  test('a token made before origins were digests (`<protocol>:<vendor>` in it) still reads as its target', () => {
    const old = `gwr1.${Buffer.from(JSON.stringify({ o: 'anthropic:claude', s: 'SIG' })).toString('base64url')}`;
    expect(readSignature(old)).toMatchObject({ origin: getSignatureOrigin('anthropic', 'claude'), signature: 'SIG' });
  });

  test.each(['gwr1.', 'gwr1.!!!', `gwr1.${Buffer.from('[1,2]').toString('base64url')}`, `gwr1.${Buffer.from('{"s":5}').toString('base64url')}`])('a damaged token %s reads as no signature', (value) => {
    expect(readSignature(value).signature).toBeUndefined();
    const turn = anthropicChat.decodeRequest({
      max_tokens: 10,
      messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: [{ type: 'thinking', thinking: 't', signature: value }, { type: 'text', text: 'ok' }] }],
    }, { policy: createLenientPolicy() }).messages[1];
    expect(turn.content[0]).toEqual({ type: 'reasoning', text: 't' });
  });

  test('a chat-completions thinking_blocks value that is not a list is a 400 naming it', () => {
    const body = { messages: [{ role: 'assistant', content: 'x', thinking_blocks: 'nope' }] };
    expect(() => openAIChatAdapter.decodeRequest(body, { policy: createLenientPolicy() })).toThrow(expect.objectContaining({ status: 400, param: 'messages[0].thinking_blocks' }));
  });

  test('stripping keeps the target\'s own and unknown-origin signatures only for a native client', () => {
    const request = createRequest({
      messages: [{ role: 'assistant', content: [
        { type: 'reasoning', text: 'a', signature: 'S1', origin: 'anthropic:a' },
        { type: 'reasoning', text: 'b', signature: 'S2' },
        { type: 'tool_call', id: 'c', name: 'f', arguments: '{}', signature: 'S3', origin: 'gemini:g' },
      ] }],
    });
    expect(stripForeignReasoning(request, 'anthropic:a', true).messages[0].content.map((p) => p.type === 'reasoning' ? p.signature : (p as any).signature)).toEqual(['S1', 'S2', undefined]);
    expect(stripForeignReasoning(request, 'anthropic:a', false).messages[0].content.map((p) => p.type === 'reasoning' ? p.signature : (p as any).signature)).toEqual(['S1', undefined]);
    expect(stripForeignReasoning(request, 'gemini:g', false).messages[0].content).toEqual([{ type: 'tool_call', id: 'c', name: 'f', arguments: '{}', signature: 'S3', origin: 'gemini:g' }]);
  });
});
