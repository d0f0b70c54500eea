import { describe, expect, it } from 'vitest';
import { compileConfigText } from '../../src/config/index.ts';

/** A config of one OpenAI vendor, one chat route and the model gpt-4o, `model` being its YAML lines. */
const defineConfig = (model: string) => `vendors:
  openai: { protocol: openai, base_url: https://api.openai.com/v1, auth: { bearer: env:OPENAI_API_KEY } }
models:
  gpt-4o:
${model}routes:
  - { method: POST, path: /v1/chat/completions, style: openai, op: chat, model: body.model, schema: chat-completions }
`;

const CONFIG = defineConfig(`    targets: [{ vendor: openai }, { vendor: openai, upstream: gpt-4o-2024-08-06, weight: 2 }]
    fallback: [{ vendor: openai }]
`);

describe('a target naming only its vendor', () => {
  it("asks the vendor for the model's own id (as a model with vendor: does), not for no model", async () => {
    const { config, problems } = await compileConfigText(CONFIG);
    expect(problems).toEqual([]);
    expect(config!.models['gpt-4o'].targets).toEqual([
      { vendor: 'openai', upstream: 'gpt-4o', weight: 1 },
      { vendor: 'openai', upstream: 'gpt-4o-2024-08-06', weight: 2 },
    ]);
    expect(config!.models['gpt-4o'].fallback).toEqual([{ vendor: 'openai', upstream: 'gpt-4o', weight: 1 }]);
  });
});

const WITH_MODEL = defineConfig(`    targets: [{ vendor: openai, model: gpt-4o-mini }, { vendor: openai, model: ignored, upstream: gpt-4o-2024-08-06 }]
`);

describe('a target naming its vendor and a model', () => {
  it("sends that model as the vendor's name of it, and upstream wins when both are given (as the schema says)", async () => {
    const { config, problems } = await compileConfigText(WITH_MODEL);
    expect(problems).toEqual([]);
    expect(config!.models['gpt-4o'].targets).toEqual([
      { vendor: 'openai', upstream: 'gpt-4o-mini', weight: 1 },
      { vendor: 'openai', upstream: 'gpt-4o-2024-08-06', weight: 1 },
    ]);
  });
});
