/** Generate-content streams: vendor chunks -> canonical events, and canonical events -> client chunks. */
import type { SseEvent } from '../../../sse/parse.ts';
import { formatSseJson } from '../../../sse/write.ts';
import type { CanonicalUsage, FinishReason, StreamEvent } from '../../../translate/canonical.ts';
import { mergeUsage } from '../../../translate/canonical.ts';
import type { ResponseMeta, StreamDecoder, StreamEncoder } from '../../../translate/adapter.ts';
import { isRecord, parseStreamEvent, parseVendorArguments } from '../../../translate/helpers.ts';
import { wrapSignature } from '../../../translate/reasoning-signature.ts';
import { writeCallSignature } from '../../../translate/reasoning-parts.ts';
import { decodeGeminiError, readGeminiFinish, readGeminiParts, readGeminiUsage, writeGeminiFinish, writeGeminiUsage, writeTextPart } from './response.ts';

/**
 * Decodes a generate-content stream: each `data:` chunk holds new text or whole function calls and the
 * usage so far; the chunk with `finishReason` completes the answer (the protocol has no end sentinel).
 */
export function createGeminiStreamDecoder(): StreamDecoder {
  let started = false;
  let tools = 0;
  // A plain property, not a getter: a decoder is made per stream, and an accessor literal costs more.
  const decoder = {
    done: false,
    decode(event: SseEvent): StreamEvent[] {
      const chunk = parseChunk(event.data);
      if (isRecord(chunk.error)) return [{ type: 'error', error: decodeGeminiError(0, chunk) }];
      const out: StreamEvent[] = [];
      if (!started) {
        started = true;
        out.push({ type: 'start', id: typeof chunk.responseId === 'string' ? chunk.responseId : undefined, model: typeof chunk.modelVersion === 'string' ? chunk.modelVersion : undefined });
      }
      // Usage before the chunk's text: a client style whose first event carries the input count gets it.
      if (isRecord(chunk.usageMetadata)) out.push({ type: 'usage', usage: readGeminiUsage(chunk.usageMetadata) });
      const candidate = Array.isArray(chunk.candidates) && isRecord(chunk.candidates[0]) ? chunk.candidates[0] : undefined;
      for (const part of readGeminiParts(candidate?.content?.parts)) {
        if (part.type === 'text') {
          if (part.text) out.push({ type: 'text', text: part.text });
          if (part.signature) out.push({ type: 'text_signature', signature: part.signature });
          continue;
        }
        if (part.type === 'reasoning') {
          if (part.text) out.push({ type: 'reasoning', text: part.text });
          if (part.signature) out.push({ type: 'reasoning_signature', signature: part.signature });
          continue;
        }
        const index = tools++;
        out.push({ type: 'tool_call_start', index, id: part.id, name: part.name, ...(part.signature ? { signature: part.signature } : {}) });
        out.push({ type: 'tool_call_delta', index, arguments: part.arguments });
      }
      if (candidate?.finishReason) {
        decoder.done = true;
        out.push({ type: 'finish', reason: readGeminiFinish(candidate.finishReason, tools > 0) });
      } else if (!candidate && chunk.promptFeedback?.blockReason !== undefined) {
        decoder.done = true;
        out.push({ type: 'finish', reason: 'content_filter' });
      }
      return out;
    },
  };
  return decoder;
}

/** A stream chunk: Gemini may wrap it in a one-element array. */
function parseChunk(data: string): Record<string, any> {
  return parseStreamEvent(data, (value) => (Array.isArray(value) && isRecord(value[0]) ? value[0] : value));
}

/**
 * Encodes a generate-content stream for the client, CRLF-framed like the protocol's own. Function calls
 * are sent whole once their arguments are complete (at the next text, or at the end), each in its own
 * chunk; their argument fragments are kept per call index, so interleaved fragments still assemble.
 * Thoughts are thought parts; a signature is a thought part of its own carrying `thoughtSignature` (a
 * call's signature rides on its function call part, a text's on an empty text part after it, as the
 * protocol streams it). One chunk is held back so that the last chunk carries the last content together with `finishReason`
 * and the final `usageMetadata`.
 */
export function createGeminiStreamEncoder(meta: ResponseMeta): StreamEncoder {
  let held: unknown[] | undefined;
  const tools = new Map<number, { id: string; name: string; args: string; signature?: string }>();
  let usage: CanonicalUsage = {};
  let finish: FinishReason | undefined;

  // A chunk before the last one, as a template: byte for byte what formatSseJson gives for
  // { candidates: [{ content: { parts, role }, index }], modelVersion, responseId }, CRLF-framed.
  const tail = `,"role":"model"},"index":0}],"modelVersion":${JSON.stringify(meta.model)},"responseId":${JSON.stringify(meta.id)}}\r\n\r\n`;
  const chunk = (parts: unknown[], last: boolean): string => {
    if (!last) return `data: {"candidates":[{"content":{"parts":${JSON.stringify(parts)}${tail}`;
    const candidate = { content: { parts, role: 'model' }, index: 0, finishReason: writeGeminiFinish(finish ?? 'stop') };
    const body = { candidates: [candidate], usageMetadata: writeGeminiUsage(usage), modelVersion: meta.model, responseId: meta.id };
    return formatSseJson(body, undefined, '\r\n');
  };
  const hold = (parts: unknown[]): string => {
    const text = held ? chunk(held, false) : '';
    held = parts;
    return text;
  };
  const flushTools = (): string => {
    let text = '';
    for (const tool of tools.values()) {
      const signature = tool.signature === undefined ? {} : { thoughtSignature: tool.signature };
      text += hold([{ functionCall: { id: tool.id, name: tool.name, args: parseVendorArguments(tool.args) }, ...signature }]);
    }
    tools.clear();
    return text;
  };

  return {
    encode(event) {
      switch (event.type) {
        case 'text':
          return flushTools() + hold([{ text: event.text }]);
        case 'text_signature':
          return flushTools() + hold([writeTextPart('', writeCallSignature(event.signature, event.origin ?? meta.origin))]);
        case 'reasoning':
          return flushTools() + hold([{ text: event.text, thought: true }]);
        case 'reasoning_signature':
          return flushTools() + hold([{ text: '', thought: true, thoughtSignature: wrapSignature({ origin: event.origin ?? meta.origin, signature: event.signature }) }]);
        case 'reasoning_redacted':
          return flushTools() + hold([{ text: '', thought: true, thoughtSignature: wrapSignature({ origin: event.origin ?? meta.origin, redacted: event.data }) }]);
        case 'tool_call_start':
          tools.set(event.index, { id: event.id, name: event.name, args: '', signature: writeCallSignature(event.signature, event.origin ?? meta.origin) });
          return '';
        case 'tool_call_delta': {
          const tool = tools.get(event.index);
          if (tool) tool.args += event.arguments;
          return '';
        }
        case 'finish':
          finish ??= event.reason;
          return '';
        case 'usage':
          usage = mergeUsage(usage, event.usage);
          return '';
        default:
          return '';
      }
    },
    end() {
      const text = flushTools();
      const parts = held ?? [{ text: '' }];
      held = undefined;
      return text + chunk(parts, true);
    },
  };
}
