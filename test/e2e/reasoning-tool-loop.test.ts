/**
 * A multi-turn tool loop with reasoning on, each official SDK against each vendor protocol (through the
 * gateway: translated, or passed through for the native pairs): the client sees the thinking and its
 * tokens, and the turn it sends back reaches the vendor with that vendor's own signatures (the
 * simulators refuse a tool turn without them, as the vendors do).
 */
import { describe, expect, test } from 'vitest';
import { signClaudeThinking } from '../../src/protocols/anthropic/simulator/thinking.ts';
import { signGeminiCall } from '../../src/protocols/gemini/simulator/thinking.ts';
import { gw, MODEL, useTranslationGateway, VENDORS, type Vendor } from './translation-drivers.ts';
import { LOOPS } from './reasoning-drivers.ts';

useTranslationGateway();

/** The vendor's bodies of the loop: first question, then the tool turn. */
function readBodies(vendor: Vendor): any[] {
  return gw.sims[vendor].received.map((r) => JSON.parse(r.body.toString()));
}

/** Asserts the tool turn the vendor received carries its own signatures, and that reasoning was asked both times. */
function expectSignedTurn(vendor: Vendor): void {
  const [first, second] = readBodies(vendor);
  if (vendor === 'anthropic') {
    expect(first.thinking).toMatchObject({ type: 'enabled' });
    const assistant = second.messages.find((m: any) => m.role === 'assistant');
    expect(assistant.content[0]).toMatchObject({ type: 'thinking', signature: signClaudeThinking(assistant.content[0].thinking) });
    expect(assistant.content.map((b: any) => b.type)).toEqual(['thinking', ...assistant.content.slice(1).map(() => expect.stringMatching(/^(text|tool_use)$/))]);
  } else if (vendor === 'gemini') {
    expect(first.generationConfig.thinkingConfig.thinkingBudget).toBeGreaterThan(0);
    const model = second.contents.find((c: any) => c.role === 'model');
    const call = model.parts.find((p: any) => p.functionCall);
    expect(call.thoughtSignature).toBe(signGeminiCall('get_weather'));
  } else {
    expect(first.reasoning_effort).toBe('low');
    const assistant = second.messages.find((m: any) => m.role === 'assistant');
    expect(assistant.tool_calls[0].function.name).toBe('get_weather');
  }
}

const PAIRS = Object.keys(LOOPS).flatMap((style) => VENDORS.filter((v) => style !== 'responses' || v !== 'openai').map((vendor) => ({ style, vendor })));

describe.each(PAIRS)('$style client, $vendor vendor', ({ style, vendor }) => {
  test.each([false, true])('stream %s: thinking shown, tool turn signed, loop completes', async (stream) => {
    const result = await LOOPS[style](MODEL[vendor], stream);
    expect(result.thinking).toContain('Thinking about: What is the weather in Paris?');
    // The messages protocol reports no thinking count of its own (its output count includes thinking).
    if (vendor !== 'anthropic') expect(result.reasoningTokens).toBeGreaterThan(0);
    expect(result.final).toContain('temp_c');
    expect(gw.sims[vendor].received).toHaveLength(2);
    expectSignedTurn(vendor);
  });
});
