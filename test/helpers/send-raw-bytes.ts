import { connect } from 'node:net';

/**
 * Sends raw bytes to a gateway on a new connection (then half-closes, unless `end` is false) and collects
 * everything it answers until it closes the connection.
 */
export function sendRawBytes(url: string, bytes: string | Buffer, { end = true } = {}): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(Number(new URL(url).port), '127.0.0.1');
    let text = '';
    socket.on('data', (chunk) => (text += chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(text));
    if (end) socket.end(bytes);
    else socket.write(bytes);
  });
}
