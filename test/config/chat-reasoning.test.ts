/** `chat.reasoning` on a model: the effort -> budget table, compiled with defaults, checked by the schema. */
import { describe, expect, it } from 'vitest';
import { compileConfigText, formatProblem } from '../../src/config/index.ts';

const config = (chat: string) => `vendors:
  v: { protocol: anthropic, base_url: https://example.test, auth: { header: x-api-key, value: env:V_KEY } }
models:
  m: { vendor: v${chat ? `, chat: ${chat}` : ''} }
routes:
  - { method: POST, path: /v1/chat/completions, style: openai, op: chat, model: body.model }
`;

describe('chat.reasoning in gateway.yaml', () => {
  it('compiles the table, filling levels left out with the defaults; absent when not declared', async () => {
    const { config: compiled, problems } = await compileConfigText(config('{ reasoning: { high: 32000 } }'));
    expect(problems).toEqual([]);
    expect(compiled!.models.m.chat.reasoning).toEqual({ low: 1024, medium: 4096, high: 32000 });
    const plain = await compileConfigText(config(''));
    expect(plain.config!.models.m.chat.reasoning).toBeUndefined();
  });

  it.each([['{ reasoning: { huge: 1 } }', 'huge'], ['{ reasoning: { low: -5 } }', 'low']])('names the problem in %s', async (chat, message) => {
    const { problems } = await compileConfigText(config(chat), 'gateway.yaml');
    expect(problems.map(formatProblem).join('\n')).toContain(message);
  });
});
