/**
 * Fuzz of the prompt-cache input surfaces: `cache_control` of any JSON value on chat-completions and
 * messages system parts, content parts and tools, translated to every vendor protocol (a 400 naming the
 * field, or a request where the breakpoint is the client's object or dropped by name), and
 * `models.<id>.chat.cache` of any value in gateway.yaml (a problem named by `gateway check`, never a crash).
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { compileConfigText, formatProblem } from '../../src/config/index.ts';
import { GatewayError } from '../../src/errors.ts';
import type { ChatAdapter } from '../../src/translate/adapter.ts';
import { anthropicChat } from '../../src/protocols/anthropic/translate/index.ts';
import { createFieldPolicy } from '../../src/translate/field-policy.ts';
import { geminiChat } from '../../src/protocols/gemini/translate/index.ts';
import { openAIChatAdapter } from '../../src/protocols/openai/chat/index.ts';
import { runFuzz } from './fuzz-run.ts';

const RUNS = 200;
const VENDORS: Array<[string, ChatAdapter]> = [['anthropic', anthropicChat], ['gemini', geminiChat], ['openai', openAIChatAdapter]];

/** A chat-completions or messages body with `mark` as cache_control at one place. */
function placeMark(style: 'openai' | 'anthropic', where: 'system' | 'part' | 'tool' | 'tool-result', mark: unknown): Record<string, unknown> {
  const part = { type: 'text', text: 'hello', ...(where === 'part' ? { cache_control: mark } : {}) };
  if (style === 'openai') {
    return {
      model: 'm',
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'rules', ...(where === 'system' ? { cache_control: mark } : {}) }] },
        { role: 'user', content: [part] },
        ...(where === 'tool-result'
          ? [{ role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }] }, { role: 'tool', tool_call_id: 'c', content: [{ type: 'text', text: 'r', cache_control: mark }] }]
          : []),
      ],
      tools: [{ type: 'function', function: { name: 'f' }, ...(where === 'tool' ? { cache_control: mark } : {}) }],
    };
  }
  return {
    model: 'm', max_tokens: 10,
    system: [{ type: 'text', text: 'rules', ...(where === 'system' ? { cache_control: mark } : {}) }],
    messages: [{ role: 'user', content: [part] }],
    tools: [{ name: 'f', input_schema: { type: 'object' }, ...(where === 'tool' || where === 'tool-result' ? { cache_control: mark } : {}) }],
  };
}

describe('fuzz: cache_control', () => {
  it('any value anywhere is a 400 naming a cache_control field, or reaches a messages vendor as sent, or is dropped by name', async () => {
    const cases = fc.record({
      style: fc.constantFrom('openai' as const, 'anthropic' as const),
      where: fc.constantFrom('system' as const, 'part' as const, 'tool' as const, 'tool-result' as const),
      vendor: fc.constantFrom(...VENDORS),
      mark: fc.oneof(fc.anything(), fc.dictionary(fc.string(), fc.jsonValue())),
      strict: fc.boolean(),
    });
    await runFuzz('cache_control', cases, async ({ style, where, vendor: [name, vendor], mark, strict }) => {
      const client = style === 'openai' ? openAIChatAdapter : anthropicChat;
      const policy = createFieldPolicy(strict, client.fieldNames);
      let body: Record<string, unknown>;
      try {
        const request = client.decodeRequest(placeMark(style, where, mark), { policy });
        body = vendor.encodeRequest(request, { model: 'm', policy, defaultMaxTokens: 10, cache: 'auto' }).body;
      } catch (error) {
        if (!(error instanceof GatewayError) || error.status !== 400) return [`not a 400: ${String(error)}`];
        const param = String((error as GatewayError & { param?: string }).param ?? error.message);
        return param.includes('cache_control') ? [] : [`400 without the field: ${error.message}`];
      }
      const isObject = typeof mark === 'object' && mark !== null && !Array.isArray(mark);
      if (mark !== null && mark !== undefined && !isObject) return ['a non-object cache_control was accepted'];
      const text = JSON.stringify(body);
      if (name === 'anthropic') {
        return isObject && !text.includes(JSON.stringify(mark)) ? ['the client breakpoint did not reach the vendor'] : [];
      }
      if (text.includes('cache_control')) return ['cache_control sent to a protocol without breakpoints'];
      return isObject && !policy.dropped.includes('cache_control') ? ['cache_control dropped without being named'] : [];
    }, RUNS);
  });

  it('models.<id>.chat.cache of any value: gateway check accepts auto and off, names the field otherwise', async () => {
    const cases = fc.oneof(fc.constantFrom<unknown>('auto', 'off'), fc.jsonValue());
    await runFuzz('chat.cache', cases, async (value) => {
      const text = `vendors:\n  a: { protocol: anthropic, base_url: https://api.anthropic.com, auth: { header: x-api-key, value: env:K } }\nmodels:\n  m: { vendor: a, chat: { cache: ${JSON.stringify(value)} } }\n` +
        'routes:\n  - { method: POST, path: /v1/messages, style: anthropic, op: messages, model: body.model }\n';
      const { config, problems } = await compileConfigText(text, 'fuzz.yaml');
      if (value === 'auto' || value === 'off') {
        if (problems.length > 0) return problems.map(formatProblem);
        return config!.models.m.chat.cache === (value === 'auto' ? 'auto' : undefined) ? [] : ['compiled cache is wrong'];
      }
      return problems.some((p) => formatProblem(p).includes('cache')) ? [] : [`accepted ${JSON.stringify(value)}`];
    }, 60);
  });
});
