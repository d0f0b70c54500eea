import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { readPlainYaml } from '../../src/config/read-plain-yaml.ts';

/** yaml's reading of the text (the config loader's document API, which the fast reader must agree with). */
const readWithYaml = (text: string) => parse(text, { uniqueKeys: false });

/** The fast reader declines the text, or reads what yaml reads (never a value where yaml refuses it). */
function expectSameOrDeclined(text: string): void {
  const fast = readPlainYaml(text);
  if (fast === undefined) return;
  let slow: unknown;
  try {
    slow = readWithYaml(text);
  } catch {
    slow = 'yaml refused it';
  }
  expect(fast).toEqual(slow);
}

/** Scalars where YAML readers are known to differ (js-yaml's own schema reads several of them otherwise). */
const TRICKY_SCALARS = [
  '1_000', '0b101', '0o17', '017', '0x1F', '-0x1', '+12', '.5', '1e3', '1E3', '1e+3', '1e400', '-1e400', '.inf', '-.Inf', '+.INF', '.NaN',
  '.nan', 'True', 'TRUE', 'false', 'yes', 'no', 'on', '~', 'null', 'Null', 'NULL', '', '2001-12-14', '2001-12-14T21:59:43Z', '12:30', '1.0',
  '-0', '0.', '08', '0o', '0x', '123456789012345678901234567890', '600s', '25mb', 'env:OPENAI_API_KEY', 'https://api.example.com/v1',
];

describe('readPlainYaml', () => {
  it.each(TRICKY_SCALARS)('reads the plain scalar %j as yaml does', (scalar) => {
    const text = `a: ${scalar}\nb: [${scalar}]\n`.replaceAll(' \n', '\n');
    const fast = readPlainYaml(text);
    expect(fast).toBeDefined();
    expect(fast).toEqual(readWithYaml(text));
  });

  it.each([
    ['an anchor and alias', 'a: &x { b: 1 }\nc: *x\n'],
    ['a tag', 'a: !!str 1\n'],
    ['a merge key', 'a: { b: 1 }\nc:\n  <<: { b: 2 }\n'],
    ['a complex key', '? [a, b]\n: 1\n'],
    ['a directive', '%YAML 1.2\n---\na: 1\n'],
    ['a __proto__ key', '__proto__: { polluted: true }\n'],
    ['a repeated key', 'a: 1\na: 2\n'],
    ['a syntax error', 'a: { b: 1\n'],
    ['two documents', 'a: 1\n---\nb: 2\n'],
    ['an empty document', ''],
    ['a comment not after a blank (yaml refuses it, js-yaml reads [])', '[]#: x\n'],
    ['a tab', '\t~x|x'],
    ['a quoted string over two lines', 'a: "e\n"\n'],
    ['a block scalar', 'a: >\n  x\n'],
    ['an empty item (yaml refuses this layout, js-yaml reads nulls)', 'list:\n  - \n-\n'],
    ['a null key', '~: x\n'],
    ['a flow map', 'a: { b: 1 }\n'],
  ])('leaves text with %s to the document API', (_name, text) => {
    expect(readPlainYaml(text)).toBeUndefined();
  });

  it('reads a quoted "*" (a key allowed every model) on the fast path', () => {
    expect(readPlainYaml('keys:\n  - name: k\n    models: ["*"]\n  - name: j\n    models:\n      - \'*\'\n')).toEqual({
      keys: [{ name: 'k', models: ['*'] }, { name: 'j', models: ['*'] }],
    });
  });

  it('agrees with yaml on any config-like value yaml writes, in block and flow style', () => {
    const scalar = fc.oneof(fc.string(), fc.constantFrom(...TRICKY_SCALARS), fc.integer(), fc.double({ noNaN: true }), fc.boolean(), fc.constant(null));
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, scalar, tie('list'), tie('map')),
      list: fc.array(tie('node'), { maxLength: 4 }),
      map: fc.dictionary(fc.string({ minLength: 1 }), tie('node'), { maxKeys: 4 }),
    }));
    fc.assert(
      fc.property(fc.dictionary(fc.string({ minLength: 1 }), value.node, { minKeys: 1, maxKeys: 5 }), fc.boolean(), (config, flow) => {
        const text = stringify(config, { aliasDuplicateObjects: false, collectionStyle: flow ? 'flow' : 'block' });
        const fast = readPlainYaml(text);
        if (fast !== undefined) expect(fast).toEqual(readWithYaml(text));
      }),
      { numRuns: 300 },
    );
  });

  it('reads any block layout of simple lines as yaml does, or leaves it to yaml', () => {
    const line = fc
      .tuple(
        fc.constantFrom('', ' ', '  ', '   ', '    '),
        fc.constantFrom('', '- ', '- - '),
        fc.constantFrom('a:', 'b:', 'a: 1', 'b: x y', 'c: "q"', 'v', '[a, b]', '{}', 'd: []', '# c', '', 'a: ~', 'e: -1', "f: 'x'", 'g: a:b', 'h: 1.5'),
      )
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 8 }), (lines) => {
        expectSameOrDeclined(`${lines.join('\n')}\n`);
      }),
      { numRuns: 3000 },
    );
  });

  it('reads arbitrary text either as yaml does or not at all', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), fc.string({ maxLength: 20 }), (value, key) => {
        for (const text of [value, `${key}: ${value}\n`, `list:\n  - ${value}\n`]) expectSameOrDeclined(text);
      }),
      { numRuns: 500 },
    );
  });
});
