import type { ClaudeBlock, ClaudeChat } from '../../../simulators/claude-chat.ts';
import { isObject, readText } from '../../../simulators/text.ts';

function readBlock(block: any): ClaudeBlock {
  if (block?.type === 'tool_result') return { kind: 'tool-result', text: readText(block.content) };
  if (block?.type === 'tool_use') return { kind: 'tool-call' };
  if (block?.type === 'thinking') return { kind: 'thinking', text: block.thinking, signature: block.signature };
  if (block?.type === 'redacted_thinking') return { kind: 'redacted-thinking', data: block.data };
  if (isObject(block) && typeof block.text === 'string') return { kind: 'text', text: block.text };
  return { kind: 'other', type: block?.type };
}

function readBlocks(content: unknown): ClaudeBlock[] {
  if (typeof content === 'string') return [{ kind: 'text', text: content }];
  return Array.isArray(content) ? content.map(readBlock) : [];
}

/** A Messages API body (`messages` an array) as the conversation the simulated Claude reads. */
export function readMessagesChat(body: Record<string, any>): ClaudeChat {
  const choice = isObject(body.tool_choice) ? body.tool_choice : { type: 'auto' };
  return {
    system: readText(body.system),
    turns: (body.messages as unknown[]).map((message: any) => ({ role: message?.role, blocks: readBlocks(message?.content) })),
    tools: (Array.isArray(body.tools) ? body.tools : []).filter(isObject).map((tool: any) => ({ name: tool.name, schema: tool.input_schema })),
    choice: { type: choice.type, name: choice.name, oneCall: choice.disable_parallel_tool_use === true },
    maxTokens: body.max_tokens,
    thinking: body.thinking,
  };
}
