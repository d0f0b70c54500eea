import { describe, expect, it } from 'vitest';
import { defineAutocannonArgs } from '../../bench/load-autocannon.ts';
import { defineWrkScript } from '../../bench/load-wrk.ts';
import type { LoadSpec } from '../../bench/load.ts';

const SPEC: LoadSpec = {
  url: 'http://127.0.0.1:9/v1/chat/completions',
  method: 'POST',
  headers: { authorization: 'Bearer sk-1', 'content-type': 'application/json' },
  bodyFile: '/tmp/body "quoted".json',
  connections: 64,
  durationS: 10,
};

describe('load generator commands', () => {
  it('writes a wrk script that sends the body file with every header and prints one JSON summary line', () => {
    const script = defineWrkScript(SPEC);
    expect(script).toContain('wrk.method = "POST"');
    expect(script).toContain('io.open("/tmp/body \\"quoted\\".json", "rb")');
    expect(script).toContain('wrk.headers["authorization"] = "Bearer sk-1"');
    expect(script).toContain('wrk.headers["content-type"] = "application/json"');
    expect(script).toContain('latency:percentile(50)');
    expect(script).toContain('e.status');
  });

  it('passes autocannon the connections, duration, headers, body file and --json', () => {
    expect(defineAutocannonArgs(SPEC)).toEqual([
      '-c', '64', '-d', '10', '-m', 'POST',
      '-H', 'authorization=Bearer sk-1', '-H', 'content-type=application/json',
      '-i', '/tmp/body "quoted".json', '--json', 'http://127.0.0.1:9/v1/chat/completions',
    ]);
  });
});
