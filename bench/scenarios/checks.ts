/**
 * One-request checks a scenario makes before its load rounds: a load generator counts statuses only, so a
 * stream that breaks after its 200 or an answer of the wrong shape would be measured as a success. A
 * failed check breaks the harness in quick mode and becomes a note in a full run (like failed requests).
 */
import { readFile } from 'node:fs/promises';
import { request } from 'undici';
import { HarnessError } from '../run-scenario.ts';
import type { BenchContext, Side } from './types.ts';

/** What a check uses of the bench context. */
export type CheckContext = Pick<BenchContext, 'quick' | 'clientKey' | 'notes'>;

/** What a client read from one request. */
export interface CheckedAnswer {
  status: number;
  text: string;
}

/** What an OpenAI chat-completions stream carried. */
export interface ChatStreamSummary {
  /** `chat.completion.chunk` events. */
  chunks: number;
  /** Chunks whose first choice carried non-empty content. */
  contentChunks: number;
  /** Whether the stream ended with `data: [DONE]`. */
  done: boolean;
  /** The first event that is not a chat completion chunk (an error event, say). */
  unexpected?: string;
}

/** Sends one request with a body file through a side, as the load generator does, and reads the answer. */
export async function sendCheckRequest(ctx: CheckContext, side: Side, path: string, bodyFile: string): Promise<CheckedAnswer> {
  const response = await request(side.origin + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${ctx.clientKey}`, 'content-type': 'application/json' },
    body: await readFile(bodyFile),
  });
  return { status: response.statusCode, text: await response.body.text() };
}

/** Reads the `data:` events of an OpenAI chat-completions stream. */
export function summarizeChatStream(text: string): ChatStreamSummary {
  const summary: ChatStreamSummary = { chunks: 0, contentChunks: 0, done: false };
  for (const line of text.split('\n')) {
    if (!line.startsWith('data:')) continue;
    const data = line.slice(5).trim();
    if (data === '[DONE]') {
      summary.done = true;
      continue;
    }
    let event: any;
    try {
      event = JSON.parse(data);
    } catch {
      summary.unexpected ??= data.slice(0, 300);
      continue;
    }
    if (event?.object !== 'chat.completion.chunk') {
      summary.unexpected ??= data.slice(0, 300);
      continue;
    }
    summary.chunks++;
    const content = event.choices?.[0]?.delta?.content;
    if (typeof content === 'string' && content !== '') summary.contentChunks++;
  }
  return summary;
}

/** Reports a failed check: a harness failure in quick mode, a note under the table otherwise. */
export function reportCheckFailure(ctx: CheckContext, scenarioId: string, problem: string): void {
  const text = `${scenarioId}: ${problem}`;
  if (ctx.quick) throw new HarnessError(text);
  if (!ctx.notes.includes(text)) ctx.notes.push(text);
}

/** One streamed chat request: through which side, with which body. */
export interface StreamProbe {
  side: Side;
  bodyFile: string;
}

async function probeStream(ctx: CheckContext, probe: StreamProbe): Promise<{ summary?: ChatStreamSummary; problem?: string }> {
  const { status, text } = await sendCheckRequest(ctx, probe.side, '/v1/chat/completions', probe.bodyFile);
  if (status !== 200) return { problem: `${probe.side.label} answered ${status}: ${text.slice(0, 300)}` };
  const summary = summarizeChatStream(text);
  if (summary.unexpected !== undefined) return { problem: `${probe.side.label} streamed an event that is not a chat chunk: ${summary.unexpected}` };
  if (!summary.done || summary.contentChunks === 0) {
    return { problem: `${probe.side.label} streamed ${summary.contentChunks} content chunks${summary.done ? '' : ' and no [DONE]'}` };
  }
  return { summary };
}

/**
 * Streams one chat request through the reference and one through the subject; reports a stream that
 * fails or breaks, or content event counts that differ (the two would not be the same work).
 */
export async function checkChatStreams(ctx: CheckContext, scenarioId: string, reference: StreamProbe, subject: StreamProbe): Promise<void> {
  const base = await probeStream(ctx, reference);
  const judged = await probeStream(ctx, subject);
  const problem = base.problem ?? judged.problem;
  if (problem !== undefined) return reportCheckFailure(ctx, scenarioId, problem);
  const [a, b] = [base.summary!.contentChunks, judged.summary!.contentChunks];
  if (a !== b) reportCheckFailure(ctx, scenarioId, `the streams differ: ${reference.side.label} carried ${a} content chunks, ${subject.side.label} ${b}`);
}

/** Generates one image through a side and answers its URLs; reports an answer that is not one image URL. */
export async function checkImageGeneration(ctx: CheckContext, scenarioId: string, side: Side, bodyFile: string): Promise<string[]> {
  const { status, text } = await sendCheckRequest(ctx, side, '/v1/images/generations', bodyFile);
  let data: unknown;
  try {
    data = JSON.parse(text)?.data;
  } catch {
    // reported below
  }
  const urls: string[] = Array.isArray(data) ? data.map((d) => d?.url).filter((url) => typeof url === 'string') : [];
  if (status !== 200 || urls.length !== 1) reportCheckFailure(ctx, scenarioId, `${side.label} answered ${status} without one image URL: ${text.slice(0, 300)}`);
  return urls;
}
