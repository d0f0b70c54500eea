import { request, type IncomingMessage } from 'node:http';

/**
 * POSTs `body` as JSON to the gateway's chat-completions route with node:http, resolving at the answer's
 * head: the test controls when (and whether) the body is read.
 */
export function postChat(gw: { url: string; key: string }, body: object): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request(`${gw.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${gw.key}`, 'content-type': 'application/json' } }, resolve);
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/** The rest of an answer's body, read whole. */
export async function readRest(res: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
