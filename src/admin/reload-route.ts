import { setResponseStatus } from 'h3';
import type { Reloader } from '../reload/create-reloader.ts';
import type { AdminRoute } from './types.ts';

/** An admin API answer: a status and a JSON body (the admin router writes it). */
export interface AdminAnswer {
  status: number;
  body: unknown;
}

/**
 * `POST /admin/reload`: compiles the config file again and applies it, answering once the reload ended.
 * 200 `{ status: 'ok', generation }` when the new config serves; 422 `config_invalid` with the problems
 * (`file:line:col: message`) when the old one keeps serving; 409 `reload_needs_config` when the gateway
 * serves built tables (started without `--config`), so there is no file to read again.
 */
export async function handleAdminReload(reloader: Reloader | undefined): Promise<AdminAnswer> {
  if (!reloader) {
    const message = 'Reload needs a config file: start the gateway with --config FILE.';
    return { status: 409, body: { error: { code: 'reload_needs_config', message } } };
  }
  const result = await reloader.reload('admin API');
  if (result.outcome === 'ok') return { status: 200, body: { status: 'ok', generation: result.generation } };
  const message = `The config file ${reloader.file} has problems; generation ${result.generation} keeps serving.`;
  return { status: 422, body: { error: { code: 'config_invalid', message, generation: result.generation, problems: result.problems } } };
}

/** The admin API route of {@link handleAdminReload}. */
export const reloadRoute: AdminRoute = {
  method: 'POST',
  path: '/admin/reload',
  async handle(event, sources) {
    const answer = await handleAdminReload(sources.reloader);
    setResponseStatus(event, answer.status);
    return answer.body;
  },
};
