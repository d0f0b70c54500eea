import { describe, expect, it } from 'vitest';
import { useRoutingGateway } from './routing-setup.ts';

const { holder, chat, openaiModels } = useRoutingGateway();

describe('streams', () => {
  it('never makes a second attempt once the client got bytes: a stream reset midway ends with an error event', async () => {
    holder.gw.sims.openai.failNext({ kind: 'reset-mid-stream', afterEvents: 2 });
    const reply = await chat('stream', { stream: true });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toContain('text/event-stream');
    const events = reply.text.split('\n\n').filter(Boolean);
    expect(events.length).toBeGreaterThanOrEqual(2);
    expect(JSON.parse(events[0].slice('data: '.length)).object).toBe('chat.completion.chunk');
    const last = JSON.parse(events[events.length - 1].slice('data: '.length));
    expect(last.error.code).toBe('upstream_stream_failed');
    expect(reply.text).not.toContain('[DONE]');
    expect(openaiModels()).toEqual(['st-primary']);
  });

  it('falls back when a stream fails before its first byte', async () => {
    holder.gw.sims.openai.failNext({ kind: 'reset-mid-stream', afterEvents: 0 });
    const reply = await chat('stream', { stream: true });
    expect(reply.status).toBe(200);
    expect(reply.broken).toBe(false);
    expect(reply.text).toContain('"model":"st-second"');
    expect(reply.text).not.toContain('st-primary');
    expect(reply.text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    expect(openaiModels()).toEqual(['st-primary', 'st-second']);
  });

  it('falls back when a streaming vendor answers 500', async () => {
    holder.gw.sims.openai.failNext({ kind: 'status', status: 500 });
    const reply = await chat('stream', { stream: true, style: 'openai' });
    expect(reply.status).toBe(200);
    expect(reply.text).toContain('"model":"st-second"');
    expect(openaiModels()).toEqual(['st-primary', 'st-second']);
  });
});

describe('cooldown', () => {
  /** One request whose primary attempt gets a 500 (the twin shares the simulator, so one fault each time). */
  async function failPrimaryOnce() {
    holder.gw.sims.openai.failNext({ kind: 'status', status: 500 });
    return chat('cooldown');
  }

  it('skips a target after repeated failures, probes it once the cooldown is over, and uses it again when it recovered', async () => {
    expect((await failPrimaryOnce()).json.model).toBe('cd-second');
    expect((await failPrimaryOnce()).json.model).toBe('cd-second');
    expect(openaiModels()).toEqual(['cd-primary', 'cd-second', 'cd-primary', 'cd-second']);

    const cooling = await chat('cooldown');
    expect(cooling.json.model).toBe('cd-second');
    expect(openaiModels().slice(4)).toEqual(['cd-second']);

    await new Promise((resolve) => setTimeout(resolve, 450));
    const probe = await chat('cooldown');
    expect(probe.status).toBe(200);
    expect(probe.json.model).toBe('cd-primary');
    const after = await chat('cooldown');
    expect(after.json.model).toBe('cd-primary');
    expect(openaiModels().slice(5)).toEqual(['cd-primary', 'cd-primary']);
  });

  it('puts a probe that fails straight back into cooldown', async () => {
    await failPrimaryOnce();
    await failPrimaryOnce();
    await new Promise((resolve) => setTimeout(resolve, 450));
    const probe = await failPrimaryOnce();
    expect(probe.json.model).toBe('cd-second');
    const next = await chat('cooldown');
    expect(next.json.model).toBe('cd-second');
    expect(openaiModels().slice(4)).toEqual(['cd-primary', 'cd-second', 'cd-second']);
    await new Promise((resolve) => setTimeout(resolve, 450));
    expect((await chat('cooldown')).json.model).toBe('cd-primary');
  });
});

describe('deadline', () => {
  it('keeps one deadline across attempts: a second hanging target gets only what is left, a third is never tried', async () => {
    holder.gw.sims.openai.failNext({ kind: 'hang' }, 2);
    const started = Date.now();
    const reply = await chat('deadline', { style: 'anthropic' });
    const elapsed = Date.now() - started;
    expect(reply.status).toBe(504);
    expect(reply.json.type).toBe('error');
    expect(reply.json.error.type).toBe('timeout_error');
    // 400 ms for the first attempt, the 100 ms left for the second (two full attempts would take 800 ms).
    expect(elapsed).toBeGreaterThanOrEqual(490);
    expect(elapsed).toBeLessThan(750);
    expect(openaiModels()).toEqual(['dl-first', 'dl-second']);
  });
});

describe('the client leaving', () => {
  it('ends every attempt: no fallback is tried after the client closed the request', async () => {
    holder.gw.sims.openai.failNext({ kind: 'hang' });
    const client = new AbortController();
    const before = holder.gw.events.length;
    const leaving = chat('hang', { signal: client.signal }).catch((error: Error) => error);
    await new Promise((resolve) => setTimeout(resolve, 100));
    client.abort();
    expect(await leaving).toBeInstanceOf(Error);
    await holder.gw.waitForEvents(before + 1);
    expect(holder.gw.events.at(-1)).toMatchObject({ model: 'hang', status: 499, error: 'client_closed_request' });
    // Past the 300 ms attempt timeout: had the request gone on, the fallback would have been called by now.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(openaiModels()).toEqual(['hang-primary']);
  });
});
