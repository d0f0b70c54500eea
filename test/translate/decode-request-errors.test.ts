/**
 * Bad input to each client style's decoder: every malformed field is a 400 `invalid_request` naming the
 * field's path (OpenAI `param`, and in the message), thrown while decoding, so before any vendor call.
 */
import { describe, expect, test } from 'vitest';
import type { ClientAdapter } from '../../src/translate/adapter.ts';
import { anthropicChat } from '../../src/protocols/anthropic/translate/index.ts';
import { geminiChat } from '../../src/protocols/gemini/translate/index.ts';
import { completionsAdapter } from '../../src/protocols/openai/completions/index.ts';
import { openAIChatAdapter } from '../../src/protocols/openai/chat/index.ts';
import { responsesAdapter } from '../../src/protocols/openai/responses/index.ts';
import { createLenientPolicy } from './fixtures.ts';

type Row = [description: string, body: Record<string, unknown>, param: string];

const USER = { role: 'user', content: 'hi' };
const CHAT: Row[] = [
  ['messages not a list', { messages: 'x' }, 'messages'],
  ['messages missing', {}, 'messages'],
  ['messages empty', { messages: [] }, 'messages'],
  ['a message not an object', { messages: ['hi'] }, 'messages[0]'],
  ['an unknown role', { messages: [{ role: 'wizard', content: 'hi' }] }, 'messages[0].role'],
  ['a missing role', { messages: [{ content: 'hi' }] }, 'messages[0].role'],
  ['content a number', { messages: [{ role: 'user', content: 5 }] }, 'messages[0].content'],
  ['system content an object', { messages: [{ role: 'system', content: {} }, USER] }, 'messages[0].content'],
  ['a part not an object', { messages: [{ role: 'user', content: ['hi'] }] }, 'messages[0].content[0]'],
  ['a text part without text', { messages: [{ role: 'user', content: [{ type: 'text', text: 5 }] }] }, 'messages[0].content[0].text'],
  ['an image part without url', { messages: [{ role: 'user', content: [{ type: 'image_url', image_url: {} }] }] }, 'messages[0].content[0].image_url.url'],
  ['tool_calls not a list', { messages: [{ role: 'assistant', content: null, tool_calls: {} }] }, 'messages[0].tool_calls'],
  ['a tool call without a name', { messages: [{ role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: { arguments: '{}' } }] }] }, 'messages[0].tool_calls[0].function.name'],
  ['a tool message without content', { messages: [USER, { role: 'tool', tool_call_id: 'c' }] }, 'messages[1].content'],
  ['a tool_call_id not a string', { messages: [USER, { role: 'tool', tool_call_id: 7, content: 'x' }] }, 'messages[1].tool_call_id'],
  ['tools not a list', { messages: [USER], tools: 'f' }, 'tools'],
  ['a tool with no name', { messages: [USER], tools: [{ type: 'function', function: { parameters: {} } }] }, 'tools[0].function.name'],
  ['a tool with no function', { messages: [USER], tools: [{ type: 'function' }] }, 'tools[0].function'],
  ['tool parameters not an object', { messages: [USER], tools: [{ type: 'function', function: { name: 'f', parameters: 'x' } }] }, 'tools[0].function.parameters'],
  ['temperature a string', { messages: [USER], temperature: 'hot' }, 'temperature'],
  ['max_tokens a string', { messages: [USER], max_tokens: '5' }, 'max_tokens'],
  ['stop a number', { messages: [USER], stop: 5 }, 'stop'],
];

const MESSAGES: Row[] = [
  ['messages not a list', { messages: 'x' }, 'messages'],
  ['messages empty', { messages: [] }, 'messages'],
  ['an unknown role', { messages: [{ role: 'wizard', content: 'hi' }] }, 'messages[0].role'],
  ['content a number', { messages: [{ role: 'user', content: 5 }] }, 'messages[0].content'],
  ['a block not an object', { messages: [{ role: 'user', content: [5] }] }, 'messages[0].content[0]'],
  ['a text block without text', { messages: [{ role: 'user', content: [{ type: 'text' }] }] }, 'messages[0].content[0].text'],
  ['a tool_use block without a name', { messages: [{ role: 'assistant', content: [{ type: 'tool_use', id: 't', input: {} }] }] }, 'messages[0].content[0].name'],
  ['a tool_use input not an object', { messages: [{ role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: 'x' }] }] }, 'messages[0].content[0].input'],
  ['a tool_result without tool_use_id', { messages: [{ role: 'user', content: [{ type: 'tool_result', content: 'x' }] }] }, 'messages[0].content[0].tool_use_id'],
  ['a tool_result content a number', { messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 5 }] }] }, 'messages[0].content[0].content'],
  ['system a number', { system: 5, messages: [USER] }, 'system'],
  ['a system block without text', { system: [{ type: 'text' }], messages: [USER] }, 'system[0].text'],
  ['tools not a list', { messages: [USER], tools: {} }, 'tools'],
  ['a tool with no name', { messages: [USER], tools: [{ input_schema: { type: 'object' } }] }, 'tools[0].name'],
  ['input_schema not an object', { messages: [USER], tools: [{ name: 'f', input_schema: [] }] }, 'tools[0].input_schema'],
  ['tool_choice a string', { messages: [USER], tool_choice: 'auto' }, 'tool_choice'],
  ['top_k a string', { messages: [USER], top_k: 'x' }, 'top_k'],
  ['stop_sequences of numbers', { messages: [USER], stop_sequences: [1] }, 'stop_sequences'],
];

const TEXT = { role: 'user', parts: [{ text: 'hi' }] };
const CONTENTS: Row[] = [
  ['contents not a list', { contents: 'hi' }, 'contents'],
  ['contents missing', {}, 'contents'],
  ['contents empty', { contents: [] }, 'contents'],
  ['a turn not an object', { contents: ['hi'] }, 'contents[0]'],
  ['an unknown role', { contents: [{ role: 'wizard', parts: [{ text: 'hi' }] }] }, 'contents[0].role'],
  ['parts a string', { contents: [{ role: 'user', parts: 'hi' }] }, 'contents[0].parts'],
  ['parts missing', { contents: [{ role: 'user' }] }, 'contents[0].parts'],
  ['a part not an object', { contents: [{ role: 'user', parts: ['hi'] }] }, 'contents[0].parts[0]'],
  ['text a number', { contents: [{ role: 'user', parts: [{ text: 5 }] }] }, 'contents[0].parts[0].text'],
  ['a functionCall without a name', { contents: [{ role: 'model', parts: [{ functionCall: { args: {} } }] }] }, 'contents[0].parts[0].functionCall.name'],
  ['a functionResponse without a name', { contents: [{ role: 'user', parts: [{ functionResponse: { response: {} } }] }] }, 'contents[0].parts[0].functionResponse.name'],
  ['inline data without a mime type', { contents: [{ role: 'user', parts: [{ inlineData: { data: 'AA==' } }] }] }, 'contents[0].parts[0].inlineData.mimeType'],
  ['systemInstruction a number', { contents: [TEXT], systemInstruction: 5 }, 'systemInstruction'],
  ['generationConfig a string', { contents: [TEXT], generationConfig: 'x' }, 'generationConfig'],
  ['temperature a string', { contents: [TEXT], generationConfig: { temperature: 'hot' } }, 'generationConfig.temperature'],
  ['tools an object', { contents: [TEXT], tools: {} }, 'tools'],
  ['functionDeclarations an object', { contents: [TEXT], tools: [{ functionDeclarations: {} }] }, 'tools[0].functionDeclarations'],
  ['a declaration with no name', { contents: [TEXT], tools: [{ functionDeclarations: [{ parameters: { type: 'OBJECT' } }] }] }, 'tools[0].functionDeclarations[0].name'],
];

const RESPONSES: Row[] = [
  ['input a number', { input: 5 }, 'input'],
  ['input empty', { input: [] }, 'input'],
  ['an item not an object', { input: ['hi'] }, 'input[0]'],
  ['an unknown role', { input: [{ role: 'wizard', content: 'hi' }] }, 'input[0].role'],
  ['content a number', { input: [{ role: 'user', content: 5 }] }, 'input[0].content'],
  ['a part without text', { input: [{ role: 'user', content: [{ type: 'input_text' }] }] }, 'input[0].content[0].text'],
  ['a function_call without a name', { input: [{ type: 'function_call', call_id: 'c', arguments: '{}' }] }, 'input[0].name'],
  ['a function_call_output without call_id', { input: [{ type: 'function_call_output', output: 'x' }] }, 'input[0].call_id'],
  ['a tool with no name', { input: 'hi', tools: [{ type: 'function', parameters: {} }] }, 'tools[0].name'],
  ['instructions a number', { input: 'hi', instructions: 5 }, 'instructions'],
  ['text a string', { input: 'hi', text: 'json' }, 'text'],
  ['max_output_tokens a string', { input: 'hi', max_output_tokens: '5' }, 'max_output_tokens'],
];

const COMPLETIONS: Row[] = [
  ['prompt a number', { prompt: 5 }, 'prompt'],
  ['prompt missing', {}, 'prompt'],
  ['prompt a list of objects', { prompt: [{}] }, 'prompt'],
  ['max_tokens a string', { prompt: 'hi', max_tokens: 'many' }, 'max_tokens'],
  ['stop an object', { prompt: 'hi', stop: {} }, 'stop'],
];

const STYLES: Array<[string, ClientAdapter, Row[]]> = [
  ['chat-completions', openAIChatAdapter, CHAT],
  ['messages', anthropicChat, MESSAGES],
  ['generate-content', geminiChat, CONTENTS],
  ['responses', responsesAdapter, RESPONSES],
  ['completions', completionsAdapter, COMPLETIONS],
];

describe.each(STYLES)('the %s decoder', (_, adapter, rows) => {
  test.each(rows)('answers %s with a 400 naming the field', (__, body, param) => {
    let thrown: any;
    try {
      adapter.decodeRequest({ model: 'm', max_tokens: 10, ...body }, { policy: createLenientPolicy() });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ status: 400, code: 'invalid_request', param });
    expect(thrown.message).toContain(`"${param}"`);
  });
});

describe('quoted client values', () => {
  test('an unknown role of 5 MB is quoted clipped', () => {
    const role = 'w'.repeat(5_000_000);
    let thrown: any;
    try {
      openAIChatAdapter.decodeRequest({ model: 'm', messages: [{ role, content: 'hi' }] }, { policy: createLenientPolicy() });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ status: 400, param: 'messages[0].role' });
    expect(thrown.message.length).toBeLessThan(500);
  });
});
