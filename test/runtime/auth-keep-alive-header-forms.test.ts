import fc from 'fast-check';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/start-gateway.ts';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());

/** How a request carries its key: an Authorization header in any case and spacing, Anthropic's header, or none. */
const arbitraryForm = fc.constantFrom('Bearer', 'bearer', 'BEARER', 'Bearer-spaced', 'x-api-key', 'none', 'Basic');
const arbitraryGood = fc.boolean();

function writeHeaders(form: string, key: string): Record<string, string> {
  if (form === 'x-api-key') return { 'x-api-key': key, 'anthropic-version': '2023-06-01' };
  if (form === 'none') return {};
  if (form === 'Basic') return { authorization: `Basic ${key}` };
  if (form === 'Bearer-spaced') return { authorization: `Bearer   ${key}  ` };
  return { authorization: `${form} ${key}` };
}

describe('keys presented in any header form one after another on one kept-alive connection', () => {
  it('are each answered as on a new connection: 200 for the configured key in a form read, 401 otherwise', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(arbitraryForm, arbitraryGood), { minLength: 2, maxLength: 6 }), async (sequence) => {
        const agent = new Agent({ connections: 1 });
        try {
          for (const [form, good] of sequence) {
            const key = good ? gw.key : `${gw.key}x`;
            const response = await request(`${gw.url}/v1/models`, { dispatcher: agent, headers: writeHeaders(form, key) });
            const body = (await response.body.json()) as any;
            const read = form !== 'none' && form !== 'Basic';
            const expected = !read ? [401, 'missing_api_key'] : good ? [200, undefined] : [401, 'invalid_api_key'];
            expect([form, good, response.statusCode, body.error?.code]).toEqual([form, good, ...expected]);
          }
        } finally {
          await agent.close();
        }
      }),
      { numRuns: 40 },
    );
  }, 60_000);
});
