import { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';

/** A pino logger whose lines are kept in memory, for asserting what was logged. */
export function createLogCapture(): { log: Logger; lines: Array<{ level: number; msg: string }> } {
  const lines: Array<{ level: number; msg: string }> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  return { log: pino({ level: 'debug' }, stream), lines };
}
