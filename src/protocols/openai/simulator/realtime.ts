/**
 * GET /v1/realtime?model=... WebSocket. No fixture transcript exists; event names follow the OpenAI
 * Realtime API reference: the server's first event is `session.created` ({type, event_id, session}).
 * Every JSON event the client sends is echoed back as `{type:"echo", event}` (a simulator-only event,
 * so tests can prove frames pass through); a frame that is not JSON gets an `error` event.
 * Auth: `Authorization: Bearer <key>` or the browser subprotocol `openai-insecure-api-key.<key>`.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { createInvalidKeyError, createMissingParamError, createOpenAIError, MISSING_KEY_ERROR } from './errors.ts';
import type { OpenAIState } from './state.ts';
import { writeRawResponse } from '../../../simulators/sim-server.ts';

const KEY_PROTOCOL = 'openai-insecure-api-key.';

/** Creates the realtime upgrade handler of an OpenAI simulator and its cleanup. */
export function createRealtime(state: OpenAIState): {
  upgrade: (req: IncomingMessage, socket: Duplex, head: Buffer, resetAfterEvents?: number) => void;
  close: () => void;
} {
  const wss = new WebSocketServer({ noServer: true });
  const upgrade = (req: IncomingMessage, socket: Duplex, head: Buffer, resetAfterEvents?: number): void => {
    const url = new URL(req.url ?? '/', 'http://sim');
    if (url.pathname !== '/v1/realtime') return writeRawResponse(socket, 404, createOpenAIError(`Invalid URL (GET ${url.pathname})`));
    const protocols = String(req.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim());
    const fromProtocol = protocols.find((p) => p.startsWith(KEY_PROTOCOL))?.slice(KEY_PROTOCOL.length);
    const auth = req.headers.authorization;
    const key = auth?.startsWith('Bearer ') ? auth.slice(7) : fromProtocol;
    if (key === undefined) return writeRawResponse(socket, 401, MISSING_KEY_ERROR);
    if (key !== state.key) return writeRawResponse(socket, 401, createInvalidKeyError(key));
    const model = url.searchParams.get('model');
    if (!model) return writeRawResponse(socket, 400, createMissingParamError('model'));
    wss.handleUpgrade(req, socket, head, (ws) => startSession(state, ws, model, resetAfterEvents));
  };
  const close = (): void => {
    for (const client of wss.clients) client.terminate();
    wss.close();
  };
  return { upgrade, close };
}

function startSession(state: OpenAIState, ws: WebSocket, model: string, resetAfterEvents?: number): void {
  let sent = 0;
  const send = (event: Record<string, unknown>): void => {
    if (resetAfterEvents !== undefined && sent >= resetAfterEvents) return ws.terminate();
    sent++;
    ws.send(JSON.stringify({ event_id: `event_${state.nextId()}`, ...event }));
  };
  send({
    type: 'session.created',
    session: {
      type: 'realtime',
      object: 'realtime.session',
      id: `sess_${state.nextId()}`,
      model,
      output_modalities: ['audio'],
      instructions: '',
      tools: [],
      tool_choice: 'auto',
      max_output_tokens: 'inf',
      audio: {
        input: { format: { type: 'audio/pcm', rate: 24000 }, turn_detection: { type: 'server_vad' } },
        output: { format: { type: 'audio/pcm', rate: 24000 }, voice: 'alloy', speed: 1 },
      },
    },
  });
  ws.on('message', (data, isBinary) => {
    let event: unknown;
    try {
      event = JSON.parse(isBinary ? Buffer.from(data as Buffer).toString() : data.toString());
    } catch {
      return send({ type: 'error', error: { type: 'invalid_request_error', code: 'invalid_json', message: 'The event is not valid JSON.', param: null, event_id: null } });
    }
    send({ type: 'echo', event });
  });
}
