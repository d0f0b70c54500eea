import type { Protocol } from '../../src/config/types.ts';

/** A vendor's error body for `status` carrying `message`, in the protocol's own error shape. */
export function formatVendorError(protocol: Protocol, status: number, message: string): object {
  switch (protocol) {
    case 'anthropic':
      return { type: 'error', error: { type: status >= 500 ? 'api_error' : 'invalid_request_error', message } };
    case 'gemini':
      return { error: { code: status, message, status: status >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT' } };
    case 'dashscope':
      return { code: status >= 500 ? 'InternalError' : 'InvalidParameter', message, request_id: 'hostile-1' };
    default:
      return { error: { message, type: status >= 500 ? 'server_error' : 'invalid_request_error', param: null, code: null } };
  }
}

/** One well-formed content event of the protocol's stream (what a vendor sends before misbehaving). */
export function formatStreamEvent(protocol: Protocol): string {
  switch (protocol) {
    case 'anthropic':
      return (
        'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_h1","type":"message","role":"assistant",' +
        '"model":"hostile","content":[],"stop_reason":null,"usage":{"input_tokens":3,"output_tokens":0}}}\n\n' +
        'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n' +
        'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hi"}}\n\n'
      );
    case 'gemini':
      return 'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"hi"}]},"index":0}],"modelVersion":"hostile"}\r\n\r\n';
    default:
      return (
        'data: {"id":"chatcmpl-h1","object":"chat.completion.chunk","created":1,"model":"hostile",' +
        '"choices":[{"index":0,"delta":{"role":"assistant","content":"hi"},"finish_reason":null}]}\n\n'
      );
  }
}

/** The protocol's in-stream error event carrying `message` (sent after a 200 and some events). */
export function formatStreamError(protocol: Protocol, message: string): string {
  switch (protocol) {
    case 'anthropic':
      return `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message } })}\n\n`;
    case 'gemini':
      return `data: ${JSON.stringify({ error: { code: 500, message, status: 'INTERNAL' } })}\r\n\r\n`;
    default:
      return `data: ${JSON.stringify({ error: { message, type: 'server_error', param: null, code: null } })}\n\n`;
  }
}

/** A realtime (WebSocket) error event carrying `message`. */
export function formatRealtimeError(message: string): string {
  return JSON.stringify({ type: 'error', event_id: 'event_h1', error: { type: 'server_error', code: null, message, param: null } });
}
