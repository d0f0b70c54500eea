import { describe, expect, it } from 'vitest';
import { createRedactor, NO_SECRETS } from '../../src/runtime/redact.ts';

const KEY = 'sk-a/b+c=d "e" ~f';

describe('redacting the gateway secrets from text and bytes', () => {
  it.each([
    ['as is, inside a Bearer header', `Authorization: Bearer ${KEY}.`, 'Authorization: Bearer [redacted].'],
    ['URL-encoded in a query string', `GET /x?key=${encodeURIComponent(KEY)}&y=1`, 'GET /x?key=[redacted]&y=1'],
    ['URL-encoded with lower-case hex', `GET /x?key=${encodeURIComponent(KEY).toLowerCase()}`, 'GET /x?key=[redacted]'],
    ['form-encoded in a query string', `GET /x?${new URLSearchParams({ key: KEY })}`, 'GET /x?key=[redacted]'],
    ['JSON-escaped in a body', JSON.stringify({ auth: KEY }), '{"auth":"[redacted]"}'],
    ['JSON-escaped twice (a body quoted in a log line)', JSON.stringify({ message: JSON.stringify({ auth: KEY }) }), '{"message":"{\\"auth\\":\\"[redacted]\\"}"}'],
    ['several times', `${KEY}|${KEY}`, '[redacted]|[redacted]'],
  ])('replaces a secret written %s', (_how, text, expected) => {
    const redactor = createRedactor([KEY]);
    expect(redactor.redactText(text)).toBe(expected);
    expect(redactor.redactBytes(Buffer.from(text)).toString()).toBe(expected);
  });

  it('replaces every secret and keeps the rest of the text', () => {
    const redactor = createRedactor(['sk-first-secret', 'second-secret-value', undefined, '']);
    expect(redactor.redactText('a sk-first-secret b second-secret-value c')).toBe('a [redacted] b [redacted] c');
  });

  it('replaces a longer secret whole when a shorter one is part of it', () => {
    const redactor = createRedactor(['secret-1', 'secret-1-and-more']);
    expect(redactor.redactText('x secret-1-and-more y secret-1')).toBe('x [redacted] y [redacted]');
  });

  it('returns the very string and bytes it was given when no secret occurs', () => {
    const redactor = createRedactor([KEY]);
    const text = 'nothing to hide here';
    const bytes = Buffer.from(text);
    expect(redactor.redactText(text)).toBe(text);
    expect(redactor.redactBytes(bytes)).toBe(bytes);
  });

  it('ignores empty and short secrets (dummy keys, digits of a timestamp): with none, nothing is searched', () => {
    expect(createRedactor(['', undefined, 'EMPTY', '1234567']).forms).toEqual([]);
    expect(createRedactor(['12345678']).redactText('a 12345678 b')).toBe('a [redacted] b');
    expect(NO_SECRETS.redactText('a b')).toBe('a b');
  });
});
