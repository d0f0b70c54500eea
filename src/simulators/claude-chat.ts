/**
 * The simulated Claude model, apart from any wire format: the conversation it reads and the reply it
 * plans. Every simulator that serves Claude (its own messages API, or a cloud's API in front of it) reads
 * its request body into a {@link ClaudeChat} and writes the {@link ClaudeReply} in its own wire shape.
 */

/** One content block of a turn, by what it is to the model. */
export type ClaudeBlock =
  | { kind: 'text'; text: string }
  | { kind: 'tool-call' }
  /** A tool's result, as the text the model reads. */
  | { kind: 'tool-result'; text: string }
  /** Reasoning given back: its text and the signature the vendor gave it. */
  | { kind: 'thinking'; text: unknown; signature: unknown }
  | { kind: 'redacted-thinking'; data: unknown }
  /** Anything else, with its block type as the wire names it (for the model's error messages). */
  | { kind: 'other'; type: unknown };

/** A turn of the conversation: its role as sent, and its blocks. */
export interface ClaudeTurn {
  role: unknown;
  blocks: ClaudeBlock[];
}

/** What the simulated Claude reads from a request. */
export interface ClaudeChat {
  /** The system prompt's text ('' without one). */
  system: string;
  turns: ClaudeTurn[];
  /** Tools offered, with their JSON Schema of arguments (a tool without an object schema is not called). */
  tools: { name: unknown; schema: unknown }[];
  /** `auto` (text then calls), `any`, `none` or `tool` (the one named); `oneCall`: one call at most. */
  choice: { type: unknown; name?: unknown; oneCall?: boolean };
  /** The output-token limit as sent (a number cuts the reply). */
  maxTokens: unknown;
  /** Claude's `thinking` request object as sent (`{ type: 'enabled', budget_tokens }` switches thinking on). */
  thinking: unknown;
}

/** The thinking block that starts a reply. */
export interface ClaudeThinking {
  text: string;
  signature: string;
  tokens: number;
}

/** A reply of the simulated Claude: optional thinking and text, then tool calls. */
export interface ClaudeReply {
  text?: string;
  tools: { id: string; name: string; input: Record<string, unknown> }[];
  stopReason: 'end_turn' | 'max_tokens' | 'tool_use';
  /** Uncached input tokens. */
  inputTokens: number;
  outputTokens: number;
  /** Input tokens read from / written to the prompt cache (0 until the simulator's cache says otherwise). */
  cacheRead: number;
  cacheWrite: number;
  /** The thinking block that starts the reply (thinking on); its tokens are part of `outputTokens`. */
  thinking?: ClaudeThinking;
}
