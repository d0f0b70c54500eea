/** `request:` on vendors and models: compiled into the tables, and checked by `gateway check`. */
import { describe, expect, it } from 'vitest';
import { compileConfigText, formatProblem } from '../../src/config/index.ts';

const config = (vendorRequest: string, modelRequest = '', protocol = 'openai') => `vendors:
  v: { protocol: ${protocol}, base_url: https://example.test/v1, auth: { bearer: env:V_KEY }${vendorRequest ? `, request: ${vendorRequest}` : ''} }
models:
  m: { vendor: v${modelRequest ? `, request: ${modelRequest}` : ''} }
routes:
  - { method: POST, path: /v1/chat/completions, style: openai, op: chat, model: body.model }
`;

describe('request facts in gateway.yaml', () => {
  it('compiles vendor and model facts (absent when not declared)', async () => {
    const { config: compiled, problems } = await compileConfigText(config(
      '{ max_tokens_field: max_tokens, unsupported_fields: [seed, logprobs], ranges: { temperature: { min: 0, max: 1.5 } } }',
      '{ ranges: { top_p: { max: 0.9 } } }',
    ));
    expect(problems).toEqual([]);
    expect(compiled!.vendors.v.request).toEqual({ maxTokensField: 'max_tokens', unsupportedFields: ['logprobs', 'seed'], ranges: { temperature: { min: 0, max: 1.5 } } });
    expect(compiled!.models.m.request).toEqual({ ranges: { topP: { max: 0.9 } } });
    const plain = await compileConfigText(config(''));
    expect(plain.config!.vendors.v.request).toBeUndefined();
    expect(plain.config!.models.m.request).toBeUndefined();
  });

  it.each([
    ['{ max_tokens_field: max_output_tokens }', '', 'openai', 'max_tokens_field'],
    ['{ ranges: { temperature: { min: 1, max: 0.5 } } }', '', 'openai', 'min 1 is above max 0.5'],
    ['', '{ ranges: { top_p: { min: 2, max: 1 } } }', 'openai', 'models.m.request.ranges.top_p: min 2 is above max 1'],
    ['{ max_tokens_field: max_tokens }', '', 'anthropic', 'only vendors of protocol openai'],
    ['{ ranges: { presence: { max: 1 } } }', '', 'openai', 'presence'],
    ['{ unsupported_fields: ["Seed!"] }', '', 'openai', 'unsupported_fields'],
    ['{ reasoning: claude-thinking }', '', 'openai', 'vendors.v.request.reasoning: only vendors of protocol bedrock read it'],
    ['', '{ reasoning: none }', 'anthropic', 'models.m.request.reasoning: only vendors of protocol bedrock read it'],
    ['', '{ reasoning: nova }', 'bedrock', 'reasoning'],
  ])('names the problem: vendor %s model %s (%s)', async (vendor, model, protocol, message) => {
    const { problems } = await compileConfigText(config(vendor, model, protocol), 'gateway.yaml');
    expect(problems.map(formatProblem).join('\n')).toContain(message);
  });

  it('compiles a bedrock model\'s reasoning shape (an application inference profile hides its model)', async () => {
    const text = config('', '{ reasoning: claude-thinking }', 'bedrock').replace('auth: { bearer: env:V_KEY }', 'region: us-east-1, auth: { sigv4: { access_key_id: env:A, secret_access_key: env:S } }');
    const { config: compiled, problems } = await compileConfigText(text);
    expect(problems).toEqual([]);
    expect(compiled!.models.m.request).toEqual({ reasoning: 'claude-thinking' });
  });
});
