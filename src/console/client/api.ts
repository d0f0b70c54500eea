/** Where the tab keeps the admin key: sessionStorage (this tab only, gone when it closes), never a cookie or a URL. */
const STORAGE_KEY = 'gateway-console-admin-key';

export const readKey = (): string | null => sessionStorage.getItem(STORAGE_KEY);
export const keepKey = (key: string): void => sessionStorage.setItem(STORAGE_KEY, key);
export const forgetKey = (): void => sessionStorage.removeItem(STORAGE_KEY);

/** An admin API answer. */
export interface Answer {
  status: number;
  json: any;
  text: string;
}

/** Called when the admin API says the key is no longer good (the page goes back to sign-in). */
let onSignedOut: () => void = () => undefined;
export function setSignedOutHandler(handler: () => void): void {
  onSignedOut = handler;
}

/** Calls the admin API with `key` (default: the tab's) in `Authorization: Bearer`; a JSON body when given. */
export async function callAdmin(path: string, options: { method?: string; body?: unknown; key?: string } = {}): Promise<Answer> {
  const key = options.key ?? readKey() ?? '';
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(path, {
    method: options.method ?? 'GET',
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    credentials: 'omit',
    cache: 'no-store',
  });
  const text = await response.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (response.status === 401 && options.key === undefined) {
    forgetKey();
    onSignedOut();
  }
  return { status: response.status, json, text };
}

/** The message of an admin API error answer. */
export function readError(answer: Answer): string {
  return answer.json?.error?.message ?? `The gateway answered ${answer.status}.`;
}
