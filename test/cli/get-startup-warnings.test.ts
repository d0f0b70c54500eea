import { describe, expect, it } from 'vitest';
import { getStartupWarnings } from '../../src/cli/get-startup-warnings.ts';
import { compileConfigFile } from '../../src/config/index.ts';

const { config } = await compileConfigFile('gateway.yaml');
const AWS = { AWS_ACCESS_KEY_ID: 'id', AWS_SECRET_ACCESS_KEY: 's', AWS_BEARER_TOKEN_BEDROCK: 'b' };

describe('getStartupWarnings', () => {
  it('names the variable of each vendor whose key is unset, once per vendor', () => {
    const env = { ...AWS, GATEWAY_API_KEY: 'k', OPENAI_API_KEY: 'o', ANTHROPIC_API_KEY: 'a', GEMINI_API_KEY: 'g', JINA_API_KEY: '' };
    expect(getStartupWarnings(config!, env)).toEqual([
      { level: 'warn', message: 'vendor "dashscope": DASHSCOPE_API_KEY is not set; its models answer 503 vendor_not_configured' },
      { level: 'warn', message: 'vendor "dashscope-compatible": DASHSCOPE_API_KEY is not set; its models answer 503 vendor_not_configured' },
      { level: 'warn', message: 'vendor "jina": JINA_API_KEY is not set; its models answer 503 vendor_not_configured' },
    ]);
  });

  it('names each unset variable of a SigV4 vendor (key id and secret); the session token is optional', () => {
    const env = { GATEWAY_API_KEY: 'k', OPENAI_API_KEY: 'o', ANTHROPIC_API_KEY: 'a', GEMINI_API_KEY: 'g', DASHSCOPE_API_KEY: 'd', JINA_API_KEY: 'j', AWS_BEARER_TOKEN_BEDROCK: 'b' };
    expect(getStartupWarnings(config!, env)).toEqual([
      { level: 'warn', message: 'vendor "bedrock": AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are not set; its models answer 503 vendor_not_configured' },
    ]);
    expect(getStartupWarnings(config!, { ...env, AWS_ACCESS_KEY_ID: 'id' })).toEqual([
      { level: 'warn', message: 'vendor "bedrock": AWS_SECRET_ACCESS_KEY is not set; its models answer 503 vendor_not_configured' },
    ]);
  });

  it('says nothing when every key is set', () => {
    const env = { ...AWS, GATEWAY_API_KEY: 'k', OPENAI_API_KEY: 'o', ANTHROPIC_API_KEY: 'a', GEMINI_API_KEY: 'g', DASHSCOPE_API_KEY: 'd', JINA_API_KEY: 'j' };
    expect(getStartupWarnings(config!, env)).toEqual([]);
  });

  it('is loud (error) when no client key is usable, and quiet when one is given as a sha256 digest', () => {
    const env = { ...AWS, OPENAI_API_KEY: 'o', ANTHROPIC_API_KEY: 'a', GEMINI_API_KEY: 'g', DASHSCOPE_API_KEY: 'd', JINA_API_KEY: 'j' };
    expect(getStartupWarnings(config!, env)).toEqual([
      { level: 'error', message: 'NO CLIENT KEY IS USABLE: none of GATEWAY_API_KEY is set; every request will be answered 401' },
    ]);
    const digest = { name: 'ci', secret: { sha256: 'ab'.repeat(32) }, models: ['*'], limits: {}, strict: false };
    expect(getStartupWarnings({ ...config!, keys: [...config!.keys, digest] }, env)).toEqual([]);
  });
});
