/**
 * Fuzz of `request:` (vendor and model) in gateway.yaml: any value is compiled or named by `gateway
 * check`, never a crash; what compiles keeps its ranges ordered.
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { compileConfigText } from '../../src/config/index.ts';
import { runFuzz } from './fuzz-run.ts';

const range = fc.record({ min: fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.jsonValue()), max: fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.jsonValue()) }, { requiredKeys: [] });
const facts = fc.oneof(
  fc.jsonValue(),
  fc.record({
    max_tokens_field: fc.oneof(fc.constantFrom('max_tokens', 'max_completion_tokens'), fc.jsonValue()),
    unsupported_fields: fc.oneof(fc.array(fc.constantFrom('seed', 'logprobs', 'stop')), fc.jsonValue()),
    ranges: fc.oneof(fc.record({ temperature: range, top_p: range }, { requiredKeys: [] }), fc.jsonValue()),
  }, { requiredKeys: [] }),
);

describe('fuzz: request facts in gateway.yaml', () => {
  it('any request: section is compiled or reported, and compiled ranges have min <= max', async () => {
    const cases = fc.record({ where: fc.constantFrom('vendor' as const, 'model' as const), protocol: fc.constantFrom('openai', 'anthropic'), value: facts });
    await runFuzz('request facts', cases, async ({ where, protocol, value }) => {
      const json = JSON.stringify(value);
      const text = `vendors:\n  v: { protocol: ${protocol}, base_url: https://example.test/v1, auth: { bearer: env:V_KEY }${where === 'vendor' ? `, request: ${json}` : ''} }\n` +
        `models:\n  m: { vendor: v${where === 'model' ? `, request: ${json}` : ''} }\nroutes:\n  - { method: POST, path: /v1/chat/completions, style: openai, op: chat, model: body.model }\n`;
      const { config, problems } = await compileConfigText(text, 'fuzz.yaml');
      if (problems.length > 0) return [];
      const compiled = where === 'vendor' ? config!.vendors.v.request : config!.models.m.request;
      for (const r of Object.values(compiled?.ranges ?? {})) {
        if (r && r.min !== undefined && r.max !== undefined && r.min > r.max) return [`compiled an empty range ${JSON.stringify(r)}`];
      }
      return [];
    }, 60);
  });
});
