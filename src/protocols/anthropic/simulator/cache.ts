import { readMessagesChat } from './read-chat.ts';
import { countClaudeInput } from '../../../simulators/plan-claude-reply.ts';
import { isObject } from '../../../simulators/text.ts';

/** How the input of one messages request splits over the simulated prompt cache. */
export interface ClaudeCacheUse {
  /** Input tokens read from the cache (`cache_read_input_tokens`). */
  read: number;
  /** Input tokens written to the cache (`cache_creation_input_tokens`). */
  written: number;
}

/**
 * A prompt cache as the Messages API keeps one: a request whose tools, system blocks or message content
 * blocks carry `cache_control` caches its prompt up to the last such block. The first request with a
 * prefix writes it (`cache_creation_input_tokens`), later ones read it (`cache_read_input_tokens`); both
 * are excluded from `input_tokens`. The prefix is counted like the simulated input (system text and the
 * messages up to the marked one); a mark on tools alone caches nothing countable.
 */
export function createClaudeCache(): (body: Record<string, any>) => ClaudeCacheUse {
  const seen = new Set<string>();
  return (body) => {
    const end = findLastBreakpoint(body);
    if (end === undefined) return { read: 0, written: 0 };
    const messages = Array.isArray(body.messages) ? body.messages.slice(0, end + 1) : [];
    const prefix = { model: body.model, tools: body.tools, system: body.system, messages };
    const tokens = countClaudeInput(readMessagesChat({ system: end >= -1 ? body.system : undefined, messages }));
    if (tokens === 0) return { read: 0, written: 0 };
    const key = JSON.stringify(prefix);
    if (seen.has(key)) return { read: tokens, written: 0 };
    seen.add(key);
    return { read: 0, written: tokens };
  };
}

/** Index of the last message with a marked block; -1 for system, -2 for tools; undefined when none. */
function findLastBreakpoint(body: Record<string, any>): number | undefined {
  if (Array.isArray(body.messages)) {
    for (let i = body.messages.length - 1; i >= 0; i--) if (hasMark(body.messages[i]?.content)) return i;
  }
  if (hasMark(body.system)) return -1;
  if (hasMark(body.tools)) return -2;
  return undefined;
}

function hasMark(blocks: unknown): boolean {
  return Array.isArray(blocks) && blocks.some((block) => isObject(block) && isObject(block.cache_control));
}
