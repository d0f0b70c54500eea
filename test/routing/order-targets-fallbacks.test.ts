import { describe, expect, it } from 'vitest';
import type { ModelEntry, TargetEntry } from '../../src/config/types.ts';
import { orderTargets } from '../../src/routing/order-targets.ts';

const target = (vendor: string, upstream: string, weight = 1): TargetEntry => ({ vendor, upstream, weight });

function makeModel(targets: TargetEntry[], fallback: TargetEntry[]): ModelEntry {
  return {
    id: 'smart',
    targets,
    fallback,
    routing: { retries: 0, fallbackOn: [], cooldownAfter: 0, cooldownMs: 0 },
    chat: { defaultMaxTokens: 1024, strict: false },
    ownedBy: 'gateway',
  };
}

const names = (order: readonly TargetEntry[]) => order.map((entry) => `${entry.vendor}/${entry.upstream}`);

describe('fallbacks in the order of targets', () => {
  it('keeps a fallback to the same vendor with another model', () => {
    const model = makeModel([target('openai', 'gpt-4o')], [target('openai', 'gpt-4o-mini')]);
    expect(names(orderTargets(model, () => 0))).toEqual(['openai/gpt-4o', 'openai/gpt-4o-mini']);
  });

  it('keeps a fallback to another vendor serving a model of the same name', () => {
    const model = makeModel([target('openai', 'llama-3.3-70b')], [target('groq', 'llama-3.3-70b')]);
    expect(names(orderTargets(model, () => 0))).toEqual(['openai/llama-3.3-70b', 'groq/llama-3.3-70b']);
  });

  it('drops only a fallback equal to a primary in both vendor and model', () => {
    const model = makeModel(
      [target('openai', 'gpt-4o'), target('anthropic', 'claude-sonnet-4-6')],
      [target('anthropic', 'claude-sonnet-4-6'), target('anthropic', 'claude-haiku-4-5'), target('google', 'gpt-4o')],
    );
    expect(names(orderTargets(model, () => 0))).toEqual([
      'openai/gpt-4o',
      'anthropic/claude-sonnet-4-6',
      'anthropic/claude-haiku-4-5',
      'google/gpt-4o',
    ]);
  });

  it('adds the fallbacks after a single primary target', () => {
    const only = target('openai', 'gpt-4o');
    const model = makeModel([only], [target('google', 'gemini-2.5-flash')]);
    const order = orderTargets(model, () => 0);
    expect(names(order)).toEqual(['openai/gpt-4o', 'google/gemini-2.5-flash']);
    expect(model.targets).toEqual([only]);
  });

  it('orders several primaries without fallbacks by weight, leaving the model untouched', () => {
    const heavy = target('a', 'm', 9);
    const light = target('b', 'm', 1);
    const model = makeModel([light, heavy], []);
    expect(names(orderTargets(model, () => 0.5))).toEqual(['a/m', 'b/m']);
    expect(model.targets).toEqual([light, heavy]);
  });
});
