/**
 * Checks, before any round, that a gateway really runs as its deployment says: with limits on the key,
 * its answers carry the limit headers and the second of two chats sees the first one's tokens charged;
 * with the log at info in a file, the file holds a request line for each chat.
 */
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { defineChatBody } from './bodies.ts';
import { CHAT_MODEL } from './config.ts';
import type { GatewayDeployment } from './deployment.ts';

/** What is checked: the gateway's origin and log file (if any), its client key and deployment. */
export interface DeploymentProbe {
  origin: string;
  logFile?: string;
  clientKey: string;
  deployment: GatewayDeployment;
}

async function sendChat(probe: DeploymentProbe): Promise<Record<string, string | string[] | undefined>> {
  const response = await request(`${probe.origin}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${probe.clientKey}`, 'content-type': 'application/json' },
    body: defineChatBody(CHAT_MODEL, false),
  });
  const text = await response.body.text();
  if (response.statusCode !== 200) throw new Error(`the gateway answered a chat with ${response.statusCode}: ${text.slice(0, 300)}`);
  return response.headers;
}

async function countRequestLines(file: string): Promise<number> {
  const text = await readFile(file, 'utf8');
  return text.split('\n').filter((line) => line.includes('"msg":"request"')).length;
}

/** Throws, saying what is missing, unless the gateway logs and limits as its deployment says. */
export async function checkDeployment(probe: DeploymentProbe): Promise<void> {
  const linesBefore = probe.logFile === undefined ? 0 : await countRequestLines(probe.logFile);
  const first = await sendChat(probe);
  const second = await sendChat(probe);
  const { limits } = probe.deployment;
  if (limits) {
    if (first['x-ratelimit-limit-requests'] !== String(limits.rpm) || first['x-ratelimit-limit-tokens'] !== String(limits.tpm)) {
      throw new Error(`the gateway's answers carry no limit headers of the bench key's limits (rpm ${limits.rpm}, tpm ${limits.tpm}): limits are not on`);
    }
    if (!(Number(second['x-ratelimit-remaining-tokens']) < Number(first['x-ratelimit-remaining-tokens']))) {
      throw new Error("the gateway did not charge a chat's tokens to the bench key before the next chat: usage is not read");
    }
  }
  if (probe.deployment.logTo === 'file') {
    if (probe.logFile === undefined) throw new Error('the gateway should log to a file but has none');
    let lines = 0;
    for (let i = 0; i < 50 && lines < linesBefore + 2; i++) {
      lines = await countRequestLines(probe.logFile);
      if (lines < linesBefore + 2) await sleep(20);
    }
    if (lines < linesBefore + 2) throw new Error(`the gateway wrote ${lines - linesBefore} request lines for 2 chats into ${probe.logFile}: its log is not at info`);
  }
}
