import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, expect, test } from 'vitest';
import type { VendorResponse } from '../../src/runtime/types.ts';
import { watchAnswerId } from '../../src/responses-state/watch-answer-id.ts';

function createResponse(contentType: string, chunks: string[]): VendorResponse {
  const body = Object.assign(Readable.from(chunks.map((c) => Buffer.from(c))), { json: async () => undefined, text: async () => '' });
  return { status: 200, headers: { 'content-type': contentType }, body };
}

/** Watches an answer; returns its bytes as they came out, the ids noted, and whether each note ended before the bytes did. */
async function watch(contentType: string, chunks: string[]) {
  const ids: string[] = [];
  let noted = false;
  const watched = watchAnswerId(createResponse(contentType, chunks), async (id) => {
    ids.push(id);
    await new Promise((resolve) => setTimeout(resolve, 20));
    noted = true;
  });
  const out = await text(watched.body);
  return { out, ids, notedBeforeEnd: noted };
}

describe('watching a passed-through answer for its response id', () => {
  test('a JSON answer: bytes unchanged, the id noted once, the end waits for the note', async () => {
    const body = `{"id":"resp_1","object":"response","output_text":"${'x'.repeat(1000)}"}`;
    const seen = await watch('application/json', [body.slice(0, 10), body.slice(10, 500), body.slice(500)]);
    expect(seen).toEqual({ out: body, ids: ['resp_1'], notedBeforeEnd: true });
  });

  test('a JSON answer whose id is not its first key, and a short one', async () => {
    const late = `{"object":"response","output":[{"id":"msg_1","text":"${'y'.repeat(500)}"}],"id":"resp_2"}`;
    expect((await watch('application/json; charset=utf-8', [late])).ids).toEqual(['resp_2']);
    expect((await watch('application/json', ['{"id":"resp_3"}'])).ids).toEqual(['resp_3']);
  });

  test("a stream: the first event's id, read across chunks; later events are not looked into", async () => {
    const first = 'event: response.created\ndata: {"type":"response.created","response":{"id":"resp_4"}}\n\n';
    const later = 'event: response.completed\ndata: {"type":"response.completed","response":{"id":"resp_other"}}\n\n';
    const seen = await watch('text/event-stream; charset=utf-8', [first.slice(0, 30), first.slice(30), later]);
    expect(seen).toEqual({ out: first + later, ids: ['resp_4'], notedBeforeEnd: true });
  });

  test('an answer without an id notes nothing and passes unchanged', async () => {
    expect(await watch('application/json', ['{"object":"list"}'])).toEqual({ out: '{"object":"list"}', ids: [], notedBeforeEnd: false });
    expect((await watch('text/event-stream', ['data: {"type":"error"}\n\n'])).ids).toEqual([]);
  });

  test('a vendor body error reaches the reader of the watched body', async () => {
    const body = Object.assign(new Readable({ read() { this.destroy(Object.assign(new Error('cut'), { code: 'UND_ERR_SOCKET' })); } }), { json: async () => undefined, text: async () => '' });
    const watched = watchAnswerId({ status: 200, headers: { 'content-type': 'text/event-stream' }, body }, async () => undefined);
    await expect(text(watched.body)).rejects.toMatchObject({ code: 'UND_ERR_SOCKET' });
  });
});
