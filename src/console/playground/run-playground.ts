import { createHash, randomBytes } from 'node:crypto';
import type { CompiledConfig, Style } from '../../config/types.ts';
import { GatewayError } from '../../errors.ts';
import { getStyleFacts, STYLES } from '../../protocols/styles.ts';
import { createGateway } from '../../gateway/create-gateway.ts';
import type { UsageSink } from '../../runtime/handle-request.ts';
import type { Services } from '../../runtime/services.ts';
import { readKeyDigest } from '../../runtime/secrets.ts';
import { closeSnapshot } from '../../runtime/snapshot.ts';
import { startRecordingProxy, type VendorExchange } from './start-recording-proxy.ts';

/** A playground call: which key it counts against (by name), the model, the client style, streamed or not, the prompt. */
export interface PlaygroundCall {
  key: string;
  model: string;
  style: Style;
  stream: boolean;
  prompt: string;
}

/** What the playground shows: the client's answer (status and body as the client got them) and each vendor exchange. */
export interface PlaygroundResult {
  status: number;
  answer: string;
  exchanges: VendorExchange[];
}

/** What the playground runs on: the serving config, its environment, the shared limits and the usage receivers. */
export interface PlaygroundContext {
  config: CompiledConfig;
  env: NodeJS.ProcessEnv;
  services: Services;
  onUsage: UsageSink[];
}

/** The call, checked: 400 `invalid_playground_call` / 404 `key_not_found` / `model_not_found`. */
export function checkPlaygroundCall(value: Record<string, unknown>, config: CompiledConfig, env: NodeJS.ProcessEnv): PlaygroundCall {
  const { key, model, style, stream, prompt } = value;
  if (typeof style !== 'string' || !Object.hasOwn(STYLES, style)) throw new GatewayError(400, 'invalid_playground_call', `style must be one of ${Object.keys(STYLES).join(', ')}.`);
  if (typeof prompt !== 'string' || prompt.length === 0 || prompt.length > 20_000) throw new GatewayError(400, 'invalid_playground_call', 'prompt must be a text of 1 to 20,000 characters.');
  if (typeof model !== 'string' || !(model in config.models)) throw new GatewayError(404, 'model_not_found', 'No such model in the config serving now.');
  const entry = config.keys.find((k) => k.name === key);
  // A key whose secret variable is unset is not in force: the playground does not bring it to life.
  if (!entry || entry.admin || !readKeyDigest(entry, env)) throw new GatewayError(404, 'key_not_found', 'Choose a client key that is in force now.');
  return { key: entry.name, model, style: style as Style, stream: stream === true, prompt };
}

/**
 * Runs one playground chat through a gateway of its own on 127.0.0.1: the serving config with only the
 * chosen key (its secret replaced by a one-time one, so no secret is needed here) and every vendor reached
 * through a recording proxy; the limits, budgets and usage receivers are the serving gateway's, so the call
 * counts against the key like any other and shows in the tail. Nothing of it is kept afterwards.
 */
export async function runPlayground(call: PlaygroundCall, context: PlaygroundContext): Promise<PlaygroundResult> {
  const { config } = context;
  const proxy = await startRecordingProxy(Object.fromEntries(Object.values(config.vendors).map((vendor) => [vendor.name, vendor.baseUrl])));
  const secret = randomBytes(24).toString('base64url');
  const key = config.keys.find((k) => k.name === call.key)!;
  const vendors = Object.fromEntries(Object.values(config.vendors).map((vendor) => {
    const { proxy: _proxy, caFile: _caFile, ...rest } = vendor;
    return [vendor.name, { ...rest, baseUrl: `${proxy.url}/${encodeURIComponent(vendor.name)}` }];
  }));
  const server = { ...config.server };
  delete server.admin;
  delete server.console;
  const gateway = createGateway({
    config: { ...config, server, vendors, keys: [{ ...key, secret: { sha256: createHash('sha256').update(secret).digest('hex') } }] },
    env: context.env,
    services: context.services,
    onUsage: context.onUsage,
  });
  try {
    const url = await gateway.listen(0, '127.0.0.1');
    const { path, headers, body } = getStyleFacts(call.style).writeChatTurn(call.model, call.prompt, call.stream, secret);
    const response = await fetch(url + path, { method: 'POST', headers, body: JSON.stringify(body) });
    const answer = (await response.text()).split(secret).join('(key)');
    return { status: response.status, answer, exchanges: proxy.exchanges };
  } finally {
    // Not gateway.close(): that would close the shared store (the serving gateway's limits) too.
    gateway.server.closeAllConnections();
    await new Promise((resolve) => gateway.server.close(resolve));
    await closeSnapshot(gateway.getSnapshot());
    await proxy.close();
  }
}
