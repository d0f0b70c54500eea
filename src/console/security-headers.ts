import { defineEventHandler } from 'h3';

/** The headers of every admin listener answer: the console's page may load only its own files, be framed by no one, and no type is sniffed. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** An h3 middleware setting {@link SECURITY_HEADERS} on every answer of the admin listener. */
export function defineSecurityHeaders() {
  return defineEventHandler((event) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) event.node.res.setHeader(name, value);
  });
}
