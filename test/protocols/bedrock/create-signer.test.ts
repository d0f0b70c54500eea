/**
 * The gateway's SigV4 signer against the simulated Bedrock's verification (itself checked against the AWS
 * SDK in simulator-sdk.test.ts): model ids with `:` and ARNs with `/`, session tokens, and refusals of a
 * wrong secret, a tampered body, or an unset credential.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { VendorEntry } from '../../../src/config/types.ts';
import { createBedrockSigner, getVendorRegion } from '../../../src/protocols/bedrock/create-signer.ts';
import { BEDROCK_SIM_ACCESS_KEY_ID, startBedrockSimulator, type BedrockSimulator } from '../../../src/protocols/bedrock/simulator/index.ts';

const SECRET = 'signer-test-secret';
const TOKEN = 'session-token-value';
let sim: BedrockSimulator;

function createVendor(region = 'eu-west-3'): VendorEntry {
  return {
    name: 'b', protocol: 'bedrock', baseUrl: sim.url, region, headers: {}, timeouts: { headersMs: 1000, bodyMs: 1000 }, connections: 1, policyErrorCodes: [],
    auth: { kind: 'signed', scheme: 'sigv4', env: 'SECRET', idEnv: 'ID', tokenEnv: 'TOKEN' },
  };
}

/** Signs a Converse call with the gateway's signer, optionally changes the body after signing, and sends it. */
async function send(env: NodeJS.ProcessEnv, modelId: string, tamper = false) {
  const signer = createBedrockSigner(createVendor(), env)!;
  const path = `/model/${encodeURIComponent(modelId)}/converse`;
  const body = JSON.stringify({ messages: [{ role: 'user', content: [{ text: 'signed hello' }] }] });
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(await signer({ method: 'POST', origin: sim.url, path, headers: { 'content-type': 'application/json' }, body })) };
  const res = await request(`${sim.url}${path}`, { method: 'POST', headers, body: tamper ? body.replace('hello', 'HELLO') : body });
  return { status: res.statusCode, type: res.headers['x-amzn-errortype'], json: (await res.body.json()) as any, headers };
}

beforeAll(async () => {
  sim = await startBedrockSimulator({ key: SECRET, credentials: { sessionToken: TOKEN } });
});
afterAll(() => sim.close());

describe('the Bedrock SigV4 signer', () => {
  const env = { ID: BEDROCK_SIM_ACCESS_KEY_ID, SECRET, TOKEN };

  test.each(['amazon.nova-lite-v1:0', 'arn:aws:bedrock:eu-west-3:123456789012:inference-profile/eu.anthropic.claude-3-7-sonnet-20250219-v1:0'])('signs %s so the service accepts it', async (modelId) => {
    const res = await send(env, modelId);
    expect(res.status).toBe(200);
    expect(res.json.output.message.content[0].text).toBe('Echo: signed hello');
    expect(res.headers['x-amz-security-token']).toBe(TOKEN);
    expect(res.headers.authorization).toMatch(/Credential=AKIAGATEWAYSIMULATOR\/\d{8}\/eu-west-3\/bedrock\/aws4_request/);
  });

  test('a wrong secret, a body changed after signing, or a missing session token is refused 403', async () => {
    expect(await send({ ...env, SECRET: 'other' }, 'amazon.nova-lite-v1:0')).toMatchObject({ status: 403, type: expect.stringMatching(/^InvalidSignatureException:/) });
    expect(await send(env, 'amazon.nova-lite-v1:0', true)).toMatchObject({ status: 403, type: expect.stringMatching(/^InvalidSignatureException:/) });
    expect(await send({ ...env, TOKEN: undefined }, 'amazon.nova-lite-v1:0')).toMatchObject({ status: 403, type: expect.stringMatching(/^UnrecognizedClientException:/) });
  });

  test('no signer when the key id or the secret is unset', () => {
    expect(createBedrockSigner(createVendor(), { SECRET })).toBeUndefined();
    expect(createBedrockSigner(createVendor(), { ID: 'x' })).toBeUndefined();
  });

  test('the region is the configured one, else the one of a bedrock-runtime base URL', () => {
    expect(getVendorRegion(createVendor('ap-south-1'))).toBe('ap-south-1');
    expect(getVendorRegion({ ...createVendor(), region: undefined, baseUrl: 'https://bedrock-runtime.ca-central-1.amazonaws.com' })).toBe('ca-central-1');
  });
});
