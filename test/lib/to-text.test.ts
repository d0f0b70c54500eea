/**
 * A client's or a vendor's value written as text never throws (src/lib/to-text.ts): JSON.parse makes objects
 * whose `toString` is null from `{"toString": null}`, and `String()` or a template literal throws on them.
 */
import { describe, expect, it } from 'vitest';
import { checkImageOptions } from '../../src/images/options.ts';
import { toText } from '../../src/lib/to-text.ts';
import { decodeConverseResponse } from '../../src/protocols/bedrock/decode-response.ts';
import { dashscopeAdapter } from '../../src/protocols/dashscope/index.ts';
import { toTaskError } from '../../src/protocols/dashscope/image-tasks.ts';
import { geminiChat } from '../../src/protocols/gemini/translate/index.ts';
import { decodeGeminiResponse } from '../../src/protocols/gemini/translate/response.ts';
import { SHAPE_A } from '../../src/images/shape.ts';
import type { VendorEntry } from '../../src/config/types.ts';
import { createLenientPolicy } from '../translate/fixtures.ts';

const HOSTILE = JSON.parse('{"toString": null, "valueOf": null}');
const HOSTILE_TEXT = '{"toString":null,"valueOf":null}';

describe('values from outside written as text', () => {
  it('are a string as it is, nothing for null, and JSON for anything else', () => {
    expect([toText('a'), toText(null), toText(undefined), toText(5), toText(true), toText([1, 'b']), toText(HOSTILE)]).toEqual(['a', '', '', '5', 'true', '[1,"b"]', HOSTILE_TEXT]);
    expect(() => String(HOSTILE)).toThrow(TypeError);
  });

  it('quote an image option of such an object in the 400 that refuses it', () => {
    const options = { shape: 'openai' as const, splitN: false, styleUnsupported: 'reject' as const, rehost: false, b64FromUrl: true, b64Only: false, pollTimeoutMs: 1000 };
    expect(() => checkImageOptions({ quality: HOSTILE }, SHAPE_A, options, 'm')).toThrow(`\`quality\` '${HOSTILE_TEXT}' is not supported`);
  });

  it('name the one allowed Gemini function of such a name by its JSON', () => {
    const request = geminiChat.decodeRequest({
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [HOSTILE] } },
    }, { policy: createLenientPolicy(), stream: false });
    expect(request.toolChoice).toEqual({ type: 'tool', name: HOSTILE_TEXT });
  });

  it('read vendor tool calls, errors and task failures holding such objects', () => {
    const gemini = decodeGeminiResponse({ candidates: [{ content: { parts: [{ functionCall: { name: HOSTILE, args: {} } }] }, finishReason: 'STOP' }] });
    expect(gemini.content).toMatchObject([{ type: 'tool_call', name: HOSTILE_TEXT }]);
    const converse = decodeConverseResponse({ output: { message: { role: 'assistant', content: [{ toolUse: { toolUseId: HOSTILE, name: HOSTILE, input: {} } }] } }, stopReason: 'tool_use' });
    expect(converse.content).toMatchObject([{ type: 'tool_call', id: HOSTILE_TEXT, name: HOSTILE_TEXT }]);
    expect(dashscopeAdapter.readError(400, { code: 'Bad', message: HOSTILE })).toMatchObject({ type: 'Bad', message: HOSTILE_TEXT });
    expect(toTaskError({ name: 'ds' } as VendorEntry, HOSTILE, 'failed').message).toContain(`(${HOSTILE_TEXT})`);
  });
});
