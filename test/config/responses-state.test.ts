/** `responses: { state }` on vendors and models: compiled into the tables, and checked by `gateway check`. */
import { describe, expect, it } from 'vitest';
import { compileConfigText, formatProblem } from '../../src/config/index.ts';

const config = (vendorResponses: string, modelResponses = '', protocol = 'openai') => `vendors:
  v: { protocol: ${protocol}, base_url: https://example.test/v1, auth: { bearer: env:V_KEY }${vendorResponses ? `, responses: ${vendorResponses}` : ''} }
models:
  m: { vendor: v${modelResponses ? `, responses: ${modelResponses}` : ''} }
routes:
  - { method: POST, path: /v1/responses, style: openai, op: responses, model: body.model }
`;

describe('who keeps Responses state, in gateway.yaml', () => {
  it('compiles state on a vendor and on a model, absent when not declared', async () => {
    const { config: compiled, problems } = await compileConfigText(config('{ state: gateway }', '{ state: vendor, store: false }'));
    expect(problems).toEqual([]);
    expect(compiled!.vendors.v.responses).toEqual({ state: 'gateway' });
    expect(compiled!.models.m.responses).toEqual({ store: false, state: 'vendor' });
    const plain = await compileConfigText(config('', '{ store: false }'));
    expect(plain.config!.vendors.v.responses).toBeUndefined();
    expect(plain.config!.models.m.responses).toEqual({ store: false });
  });

  it('accepts state: gateway on any protocol (the gateway keeps the state of Anthropic and Gemini vendors anyway)', async () => {
    expect((await compileConfigText(config('{ state: gateway }', '{ state: gateway }', 'anthropic'))).problems).toEqual([]);
  });

  it.each([
    ['{ state: vendor }', '', 'anthropic', 'vendors.v.responses.state: only vendors of protocol openai keep Responses state'],
    ['', '{ state: vendor }', 'gemini', 'models.m.responses.state: vendor "v" speaks gemini'],
    ['{ state: somewhere }', '', 'openai', 'state'],
    ['{ store: false }', '', 'openai', 'store'],
  ])('names the problem: vendor %s model %s (%s)', async (vendor, model, protocol, message) => {
    const { problems } = await compileConfigText(config(vendor, model, protocol), 'gateway.yaml');
    expect(problems.map(formatProblem).join('\n')).toContain(message);
  });

  it.each([
    ['a model id', 'a'],
    ['{ model }', '{ model: a }'],
  ])('follows targets and fallbacks that name another model (%s) to its vendor', async (_, ref) => {
    const text = `vendors:
  o: { protocol: openai, base_url: https://example.test/v1, auth: { bearer: env:O_KEY } }
  g: { protocol: gemini, base_url: https://example.test/v1, auth: { bearer: env:G_KEY } }
models:
  a: { vendor: g }
  b: { vendor: o }
  m: { targets: [${ref}], responses: { state: vendor } }
  f: { vendor: o, fallback: [${ref}], responses: { state: vendor } }
  fine: { targets: [b], responses: { state: vendor } }
routes:
  - { method: POST, path: /v1/responses, style: openai, op: responses, model: body.model }
`;
    const { problems } = await compileConfigText(text, 'gateway.yaml');
    expect(problems.map((problem) => problem.message)).toEqual([
      'models.m.responses.state: vendor "g" speaks gemini, which keeps no Responses state: only the gateway can',
      'models.f.responses.state: vendor "g" speaks gemini, which keeps no Responses state: only the gateway can',
    ]);
  });

  it('refuses state on a key (who keeps state is a matter of the vendor)', async () => {
    const text = `${config('')}keys:\n  - { name: k, key: env:K, models: ["*"], responses: { state: gateway } }\n`;
    const { problems } = await compileConfigText(text, 'gateway.yaml');
    expect(problems.map(formatProblem).join('\n')).toContain('state');
  });
});
