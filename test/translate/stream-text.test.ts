/** Reading a stream event's text in place: the same text a full JSON parse gives, or "no" (never a wrong text). */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { hasTextAt, isPlainText, readJsonString, skipDigits, writeJsonString } from '../../src/translate/stream-text.ts';

/** What JSON.parse makes of the span, when it is one string literal. */
function parseSpan(text: string, start: number, end: number): string | undefined {
  try {
    const value: unknown = JSON.parse(text.slice(start, end));
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

const HAS_CONTROL = /[\u0000-\u001f]/;

describe('stream text reading', () => {
  test('a literal reads as its text, with or without escapes; a span that is not one literal reads as nothing', () => {
    const data = '{"text":"a \\"quoted\\" \\u00e9 line\\n"}';
    expect(readJsonString(data, 8, data.length - 1)).toBe('a "quoted" é line\n');
    expect(readJsonString('x"plain"x', 1, 8)).toBe('plain');
    expect(readJsonString('""', 0, 2)).toBe('');
    expect(readJsonString('"a","b"', 0, 7)).toBeUndefined();
    expect(readJsonString('"a\\"', 0, 4)).toBeUndefined();
    expect(readJsonString('"a"', 0, 2)).toBeUndefined();
    expect(readJsonString('12', 0, 2)).toBeUndefined();
  });

  test('hasTextAt and skipDigits read only the characters asked for', () => {
    expect(hasTextAt('{"index":12,"x"', '"index":', 1)).toBe(true);
    expect(hasTextAt('{"index":12,"x"', '"index":', 0)).toBe(false);
    expect(hasTextAt('ab', 'abc', 0)).toBe(false);
    expect(skipDigits('{"index":12,"x"', 9)).toBe(11);
    expect(skipDigits('{"index":,', 9)).toBe(9);
    expect(skipDigits('7', 0)).toBe(1);
  });

  test('any string written by JSON.stringify, anywhere in a line, reads back as itself', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), fc.string(), fc.string(), (value, before, after) => {
      const literal = JSON.stringify(value);
      const line = before + literal + after;
      expect(readJsonString(line, before.length, before.length + literal.length)).toBe(value);
    }));
  });

  test('on any span, a text read agrees with JSON.parse (raw control characters aside, which vendors never send)', () => {
    const piece = fc.constantFrom('"', '\\', 'a', 'é', '\\"', '\\u0041', '\\n', '\\x', '}', ' ', '\n');
    fc.assert(fc.property(fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join('')), (text) => {
      const read = readJsonString(text, 0, text.length);
      const parsed = parseSpan(text, 0, text.length);
      // Never a wrong text; JSON.parse also takes white space around a literal, a span is the literal alone.
      // A raw control character is read as it is where JSON.parse refuses the literal (vendors never send one).
      if (read !== undefined && !HAS_CONTROL.test(text)) expect(read).toBe(parsed);
      const bare = text.startsWith('"') && text.endsWith('"');
      if (parsed !== undefined && bare) expect(read).toBe(parsed);
      else if (parsed === undefined && !HAS_CONTROL.test(text)) expect(read).toBeUndefined();
    }));
  });

  test('a literal with white space around it is no span of one literal (JSON.parse would take it)', () => {
    expect(parseSpan(' ""', 0, 3)).toBe('');
    expect(readJsonString(' ""', 0, 3)).toBeUndefined();
    expect(readJsonString('"a" ', 0, 4)).toBeUndefined();
  });

  test('a string is written exactly as JSON.stringify writes it (quotes, backslashes, controls, lone surrogates, any unicode)', () => {
    for (const text of ['', 'plain', ' Write', 'a"b', 'a\\b', 'line\n', '\u0000', '\u001f', '\u007f', 'é👋', '\ud800', 'x\udfff', '\u2028']) {
      expect(writeJsonString(text)).toBe(JSON.stringify(text));
    }
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (text) => {
      expect(writeJsonString(text)).toBe(JSON.stringify(text));
    }));
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom('a', ' ', '"', '\\', '\n', '\u001f', '\ud83d', '\udc4b', '€') }), (text) => {
      expect(writeJsonString(text)).toBe(JSON.stringify(text));
    }));
  });

  test('plain text is text JSON.stringify writes unchanged between two quotes: all of it but surrogate pairs (left to JSON.stringify)', () => {
    const check = (text: string) => {
      const unchanged = JSON.stringify(text) === `"${text}"`;
      expect(isPlainText(text)).toBe(unchanged && !/[\ud800-\udfff]/.test(text));
    };
    for (const text of ['', 'plain', 'a"b', 'a\\b', 'line\n', '\u007f', 'é👋', '\ud800', '\u2028']) check(text);
    fc.assert(fc.property(fc.string({ unit: 'binary' }), check));
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom('a', '"', '\\', '\n', '\ud83d', '\udc4b') }), check));
  });
});
