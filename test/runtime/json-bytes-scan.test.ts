import { describe, expect, it } from 'vitest';
import { checkJsonBytes, getUnsupportedMediaTypeError, isJsonContentType, MAX_JSON_DEPTH } from '../../src/runtime/json-bytes.ts';

const rejection = (raw: string | Buffer) => {
  try {
    checkJsonBytes(Buffer.from(raw));
    return undefined;
  } catch (error) {
    return error as { status: number; code: string; message: string };
  }
};
const nest = (levels: number, open = '[', close = ']') => open.repeat(levels) + close.repeat(levels);

describe('isJsonContentType', () => {
  it.each([
    'application/json',
    'APPLICATION/JSON',
    ' application/json ',
    'application/json;charset=utf8',
    'application/json; charset="UTF-8"',
    'application/json; foo=bar',
    'application/json; xcharset=latin1',
    'application/json; charsetx=latin1',
    'application/problem+json',
    'application/vnd.api+json; charset=utf-8',
  ])('%s is JSON', (header) => expect(isJsonContentType(header)).toBe(true));

  it.each([
    undefined,
    '',
    'text/json',
    'text/x+json',
    'application/jsonx',
    'application/json+x',
    'application/json; charset=latin1',
    'application/json;charset=utf-16',
    'application/problem+json; charset=iso-8859-1',
    'application/json; foo=bar; charset=ascii',
    'application/json; charset = latin1',
  ])('%s is not JSON', (header) => expect(isJsonContentType(header)).toBe(false));
});

describe('getUnsupportedMediaTypeError', () => {
  it('quotes the given type (at most 100 characters) or says none', () => {
    expect(getUnsupportedMediaTypeError('text/plain')).toMatchObject({
      status: 415,
      code: 'unsupported_media_type',
      message: 'This endpoint takes a JSON body with Content-Type `application/json` (got `text/plain`).',
    });
    expect(getUnsupportedMediaTypeError(undefined).message).toContain('(got none)');
    expect(getUnsupportedMediaTypeError(`text/${'x'.repeat(200)}`).message).toContain(`(got \`text/${'x'.repeat(95)}\`)`);
  });
});

describe('checkJsonBytes', () => {
  it('refuses bytes that are not UTF-8 with 400 invalid_utf8', () => {
    expect(rejection(Buffer.from([0x7b, 0xff, 0x7d]))).toMatchObject({ status: 400, code: 'invalid_utf8', message: 'The request body is not valid UTF-8.' });
  });

  it(`accepts ${MAX_JSON_DEPTH} levels and refuses ${MAX_JSON_DEPTH + 1}, of arrays or objects`, () => {
    expect(rejection(nest(MAX_JSON_DEPTH))).toBeUndefined();
    expect(rejection(nest(MAX_JSON_DEPTH + 1))).toMatchObject({
      status: 400,
      code: 'json_too_deep',
      message: `The request body nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels.`,
    });
    expect(rejection('{"a":'.repeat(MAX_JSON_DEPTH + 1) + '1' + '}'.repeat(MAX_JSON_DEPTH + 1))).toMatchObject({ code: 'json_too_deep' });
  });

  it('counts closing brackets: many shallow values side by side are not deep', () => {
    expect(rejection(`[${Array(300).fill('[]').join(',')}]`)).toBeUndefined();
    expect(rejection(`[${Array(300).fill('{}').join(',')}]`)).toBeUndefined();
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(rejection(JSON.stringify({ text: '['.repeat(500) }))).toBeUndefined();
    expect(rejection(JSON.stringify({ text: `say \\"${'{'.repeat(500)}` }))).toBeUndefined();
    expect(rejection(JSON.stringify({ text: `quote " then ${'['.repeat(500)}` }))).toBeUndefined();
  });

  it('a string ending in an escaped backslash closes, and brackets after it count', () => {
    const body = `["a\\\\",${nest(MAX_JSON_DEPTH)}]`;
    expect(rejection(body)).toMatchObject({ code: 'json_too_deep' });
    expect(rejection(`["a\\\\",${nest(MAX_JSON_DEPTH - 1)}]`)).toBeUndefined();
  });

  it('an escaped quote does not close a string', () => {
    const body = `["a\\",${nest(MAX_JSON_DEPTH + 5)}"]`;
    expect(rejection(body)).toBeUndefined();
  });

  it('an empty string at the very start closes at once', () => {
    expect(rejection(`""${nest(MAX_JSON_DEPTH + 1)}`)).toMatchObject({ code: 'json_too_deep' });
  });

  it('leaves a string that never closes to the parser', () => {
    expect(rejection(`["${'['.repeat(300)}`)).toBeUndefined();
    expect(rejection(`${nest(10)}"${'['.repeat(300)}`)).toBeUndefined();
  });
});
