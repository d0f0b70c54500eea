/** Converse usage and stop reasons in canonical terms (shared by whole answers and streams). */
import type { CanonicalUsage, FinishReason } from '../../translate/canonical.ts';
import { isRecord, readNumber } from '../../translate/helpers.ts';
import { readOwn } from '../../lib/read-own.ts';

const STOP_IN: Record<string, FinishReason> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  tool_use: 'tool_calls',
  guardrail_intervened: 'content_filter',
  content_filtered: 'content_filter',
};

/** A Converse `stopReason` in canonical terms. */
export function readConverseStop(reason: unknown): FinishReason {
  return (typeof reason === 'string' && readOwn(STOP_IN, reason)) || 'other';
}

/**
 * Reads a Converse `usage` object. Bedrock's `inputTokens` leaves out the tokens read from and written to
 * the prompt cache (`cacheReadInputTokens`, `cacheWriteInputTokens`), which canonical input includes.
 */
export function readConverseUsage(usage: unknown): CanonicalUsage {
  if (!isRecord(usage)) return {};
  const input = readNumber(usage.inputTokens);
  const cacheRead = readNumber(usage.cacheReadInputTokens);
  const cacheWrite = readNumber(usage.cacheWriteInputTokens);
  return {
    inputTokens: input === undefined ? undefined : input + (cacheRead ?? 0) + (cacheWrite ?? 0),
    outputTokens: readNumber(usage.outputTokens),
    totalTokens: readNumber(usage.totalTokens),
    cachedInputTokens: cacheRead,
    cacheCreationInputTokens: cacheWrite,
  };
}
