import WebSocket from 'ws';

/** One realtime session a fuzz case opens: how it connects and what it sends once connected. */
export interface RealtimeSession {
  /** Path and query, e.g. `/v1/realtime?model=gpt-realtime`. */
  target: string;
  headers: Record<string, string>;
  protocols: string[];
  /** Frames sent once open: text or binary. */
  frames: (string | Buffer)[];
  /** Close code the client ends with (1000 normal; others odd but legal). */
  closeCode: number;
}

/** What the client saw: the refusal, or the 101 and the frames the gateway relayed. */
export interface RealtimeResult {
  /** The handshake answer's status (101 when accepted); undefined when none came. */
  status?: number;
  headers: Record<string, string>;
  /** The refusal's body, or every frame received (text), joined by newlines. */
  text: string;
  error?: string;
}

/** Runs `session` against the gateway at `url` (http://...) and resolves within `waitMs`. */
export function runRealtimeSession(url: string, session: RealtimeSession, waitMs: number): Promise<RealtimeResult> {
  return new Promise((resolve) => {
    const result: RealtimeResult = { headers: {}, text: '' };
    const ws = new WebSocket(url.replace(/^http/, 'ws') + session.target, session.protocols, { headers: session.headers, maxPayload: 8 * 1024 * 1024 });
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      ws.terminate();
      resolve(result);
    };
    const timer = setTimeout(finish, waitMs);
    const keep = (headers: Record<string, string | string[] | undefined>) => {
      for (const [name, value] of Object.entries(headers)) result.headers[name] = String(value);
    };
    ws.on('upgrade', (res) => {
      result.status = res.statusCode;
      keep(res.headers);
    });
    ws.on('unexpected-response', (_req, res) => {
      result.status = res.statusCode;
      keep(res.headers);
      res.on('data', (chunk: Buffer) => (result.text += chunk.toString('utf8')));
      res.on('end', finish).on('error', finish).on('close', finish);
    });
    ws.on('message', (data) => (result.text += String(data) + '\n'));
    ws.on('error', (error) => {
      result.error ??= error.message;
      if (result.status !== undefined && result.status !== 101) return;
      finish();
    });
    ws.on('close', finish);
    ws.on('open', () => {
      for (const frame of session.frames) ws.send(frame);
      // Time for the vendor's answers to come back, then the client's close.
      setTimeout(() => ws.close(session.closeCode), 150);
    });
  });
}
