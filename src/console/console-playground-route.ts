import { setResponseHeader } from 'h3';
import { GatewayError } from '../errors.ts';
import { getConsole } from './get-console.ts';
import type { ConsoleRoute } from './types.ts';
import { readJsonBody } from './read-json-body.ts';

/**
 * `POST /admin/playground` `{key, model, style, stream, prompt}`: one chat under the named client key (it
 * counts against that key's limits and budget), answered with the client's status and body and each request
 * the vendor received with its raw answer, every credential removed. 409 `playground_unavailable` where no
 * requests are served (a `--workers` primary).
 */
export const consolePlaygroundRoute: ConsoleRoute = {
  method: 'POST',
  path: '/admin/playground',
  async handle(event, host) {
    const view = getConsole(host);
    if (!view.runPlayground) throw new GatewayError(409, 'playground_unavailable', 'This process serves no requests (a --workers primary): the playground runs where requests are served.');
    const body = await readJsonBody(event);
    setResponseHeader(event, 'cache-control', 'no-store');
    return view.runPlayground(body);
  },
};
