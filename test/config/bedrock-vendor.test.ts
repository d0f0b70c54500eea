/** `protocol: bedrock` vendors in gateway.yaml: region, SigV4 or Bearer auth, and the refusals of a misplaced sigv4. */
import { describe, expect, it } from 'vitest';
import { compileConfigText, formatProblem } from '../../src/config/index.ts';

const SIGV4 = '{ sigv4: { access_key_id: env:AWS_ACCESS_KEY_ID, secret_access_key: env:AWS_SECRET_ACCESS_KEY, session_token: env:AWS_SESSION_TOKEN } }';

const ROUTES = 'routes:\n  - { method: POST, path: /v1/chat/completions, style: openai, op: chat, model: body.model, schema: chat-completions }\n';

function configWith(vendor: string): string {
  return `vendors:\n  aws: ${vendor}\nmodels:\n  nova: { vendor: aws, upstream: "amazon.nova-pro-v1:0" }\n${ROUTES}`;
}

describe('bedrock vendors in gateway.yaml', () => {
  it('compiles SigV4 auth to a signed vendor naming its three variables, with its region', async () => {
    const { config, problems } = await compileConfigText(configWith(`{ protocol: bedrock, base_url: https://bedrock-runtime.eu-west-1.amazonaws.com, region: eu-west-1, auth: ${SIGV4} }`));
    expect(problems).toEqual([]);
    expect(config!.vendors.aws).toMatchObject({
      protocol: 'bedrock', region: 'eu-west-1',
      auth: { kind: 'signed', scheme: 'sigv4', env: 'AWS_SECRET_ACCESS_KEY', idEnv: 'AWS_ACCESS_KEY_ID', tokenEnv: 'AWS_SESSION_TOKEN' },
    });
    expect(config!.models.nova.targets[0].upstream).toBe('amazon.nova-pro-v1:0');
  });

  it('compiles a Bedrock API key as Bearer auth', async () => {
    const { config } = await compileConfigText(configWith('{ protocol: bedrock, base_url: https://bedrock-runtime.us-east-1.amazonaws.com, auth: { bearer: env:AWS_BEARER_TOKEN_BEDROCK } }'));
    expect(config!.vendors.aws.auth).toEqual({ kind: 'bearer', env: 'AWS_BEARER_TOKEN_BEDROCK' });
  });

  it.each([
    ['sigv4 on a protocol that does not sign', `{ protocol: openai, base_url: https://x.example, auth: ${SIGV4} }`, /vendors\.aws\.protocol: must be equal to constant/],
    ['a secret written in the file', '{ protocol: bedrock, base_url: https://x.example, auth: { sigv4: { access_key_id: AKIA123, secret_access_key: env:S } } }', /vendors\.aws\.auth.*sigv4\.access_key_id: "AKIA123" does not match/],
    ['a missing secret', '{ protocol: bedrock, base_url: https://x.example, auth: { sigv4: { access_key_id: env:I } } }', /secret_access_key/],
    ['a malformed region', '{ protocol: bedrock, base_url: https://x.example, region: "US East" }', /vendors\.aws\.region/],
  ])('refuses %s', async (_name, vendor, pattern) => {
    const { problems } = await compileConfigText(configWith(vendor), 'test.yaml');
    expect(problems.map(formatProblem).join('\n')).toMatch(pattern);
  });
});
