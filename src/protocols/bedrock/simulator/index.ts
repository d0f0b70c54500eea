/**
 * A simulated Amazon Bedrock runtime: `POST /model/{modelId}/converse` and `converse-stream` on a real HTTP
 * server on 127.0.0.1, verifying SigV4 signatures (or a Bedrock API key) as the service does.
 */
import type { ServerResponse } from 'node:http';
import { sendJson, readJson, startSimServer, type SimRequest } from '../../../simulators/sim-server.ts';
import { createIdMaker, isObject } from '../../../simulators/text.ts';
import type { Simulator, SimulatorOptions } from '../../../simulators/types.ts';
import { SIMULATOR_KEY_ID } from '../../../simulators/keys.ts';
import { findConverseThinkingProblem, planConverseReply } from './plan-reply.ts';
import { findClaudeSamplingProblem } from '../../../simulators/claude-sampling.ts';
import { verifyBedrockAuth, type BedrockSimCredentials } from './verify-auth.ts';
import { createConverseResponse, createConverseStream, encodeStreamMessage } from './write-converse.ts';

/** The access key id the simulator accepts unless started with another (its secret is the simulator key). */
export const BEDROCK_SIM_ACCESS_KEY_ID = SIMULATOR_KEY_ID;

/**
 * A simulated Bedrock; `failStreamNext` makes the next stream end in a Bedrock exception (lowerCamel name,
 * as the event stream names it) after its first `afterEvents` messages (default 1); with more than one,
 * the exception follows them after a pause, so that a reader has sent them on before it arrives.
 */
export interface BedrockSimulator extends Simulator {
  failStreamNext(exception: string, message: string, afterEvents?: number): void;
  /** The next answer with thinking on returns it as `redactedContent` (flagged thinking, encrypted). */
  redactNextThinking(): void;
}

const ERROR_TYPES: Record<number, string> = {
  400: 'ValidationException',
  403: 'AccessDeniedException',
  404: 'ResourceNotFoundException',
  408: 'ModelTimeoutException',
  424: 'ModelErrorException',
  429: 'ThrottlingException',
  500: 'InternalServerException',
  503: 'ServiceUnavailableException',
};

/** Bedrock's error answer: the exception in `x-amzn-errortype`, `{message}` as the body. */
export function createBedrockErrorHeaders(type: string): Record<string, string> {
  return { 'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/`, 'x-amzn-requestid': 'sim-request' };
}

/**
 * Starts the simulated Bedrock. `options.key` is the secret access key (and the accepted Bedrock API key);
 * `credentials` may name another key id, a session token or API key.
 */
export async function startBedrockSimulator(options: SimulatorOptions & { credentials?: Partial<BedrockSimCredentials> } = {}): Promise<BedrockSimulator> {
  const key = options.key ?? 'bedrock-sim-secret';
  const creds: BedrockSimCredentials = { accessKeyId: BEDROCK_SIM_ACCESS_KEY_ID, secretAccessKey: key, apiKey: key, ...options.credentials };
  const nextId = createIdMaker('sim');
  const cache = new Set<string>();
  const streamFaults: Array<{ exception: string; message: string; afterEvents: number }> = [];
  let redactNext = false;
  const handle = async (req: SimRequest, res: ServerResponse): Promise<void> => {
    const fail = (type: string, status: number, message: string): void => sendJson(res, status, { message }, createBedrockErrorHeaders(type));
    const refusal = await verifyBedrockAuth(req, creds);
    if (refusal) return fail(refusal.type, 403, refusal.message);
    const route = /^\/model\/([^/]+)\/(converse|converse-stream)$/.exec(req.path);
    if (req.method !== 'POST' || !route) return fail('UnknownOperationException', 404, 'Not Found');
    const body = readJson(req.body);
    const choice = body?.toolConfig?.toolChoice;
    const sampling = () => findClaudeSamplingProblem(body.additionalModelRequestFields?.thinking, isObject(choice?.any) || isObject(choice?.tool), body.inferenceConfig?.topP);
    const problem = findProblem(body) ?? findConverseThinkingProblem(body) ?? sampling();
    if (problem) return fail('ValidationException', 400, problem);
    const reply = planConverseReply(body, nextId, cache, redactNext);
    if (reply.redacted !== undefined) redactNext = false;
    if (route[2] === 'converse') return sendJson(res, 200, createConverseResponse(reply), { 'x-amzn-requestid': nextId() });
    const messages = createConverseStream(reply, options.streamEvents);
    const fault = streamFaults.shift();
    res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream', 'x-amzn-requestid': nextId() });
    if (!fault) {
      for (const message of messages) res.write(message);
      return void res.end();
    }
    for (const message of messages.slice(0, fault.afterEvents)) res.write(message);
    if (fault.afterEvents > 1) await new Promise((resolve) => setTimeout(resolve, 50));
    res.end(encodeStreamMessage(fault.exception, { message: fault.message }, true));
  };
  const sim = await startSimServer({
    options,
    basePath: '',
    errorBody: (status) => ({ message: `Simulated ${ERROR_TYPES[status] ?? 'error'} (HTTP ${status}).` }),
    handle,
  });
  return {
    ...sim,
    failStreamNext: (exception, message, afterEvents = 1) => void streamFaults.push({ exception, message, afterEvents }),
    redactNextThinking: () => {
      redactNext = true;
    },
    reset: () => {
      streamFaults.length = 0;
      redactNext = false;
      sim.reset();
    },
  };
}

/** The first problem Bedrock's validation would report for a Converse body. */
function findProblem(body: unknown): string | undefined {
  if (!isObject(body)) return 'Malformed input request, please reformat your input and try again.';
  if (!Array.isArray(body.messages) || body.messages.length === 0) return 'A conversation must start with a user message. Try again with a conversation that starts with a user message.';
  const usesTools = body.messages.some((m: any) => Array.isArray(m?.content) && m.content.some((b: any) => isObject(b?.toolUse) || isObject(b?.toolResult)));
  for (let i = 0; i < body.messages.length; i++) {
    const m = body.messages[i];
    const role = i % 2 === 0 ? 'user' : 'assistant';
    if (m?.role !== role) return `A conversation must alternate between user and assistant roles. Make sure the conversation alternates between user and assistant roles and try again.`;
    if (!Array.isArray(m.content) || m.content.length === 0) return `The content field in the Message object at messages.${i} is empty. Add a ContentBlock object to the content field and try again.`;
  }
  if (usesTools && !isObject(body.toolConfig)) return 'The toolConfig field must be defined when using toolUse and toolResult content blocks.';
  return undefined;
}
