import { describe, expect, test } from 'vitest';
import { fromGeminiSchema, MAX_REF_DEPTH, toGeminiSchema } from '../../../src/protocols/gemini/translate/schema.ts';
import { readFixture } from '../../translate/fixtures.ts';

describe('JSON Schema -> generate-content schema subset', () => {
  test('upper-cases types and keeps the supported keywords', () => {
    expect(toGeminiSchema({
      type: 'object',
      title: 'Query',
      description: 'A query',
      properties: {
        q: { type: 'string', minLength: 1, maxLength: 100, pattern: '^[a-z]+$', default: 'x', examples: ['abc'] },
        n: { type: 'integer', minimum: 1, maximum: 10, format: 'int32' },
        tags: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 3 },
      },
      required: ['q', 'missing'],
    })).toEqual({
      type: 'OBJECT',
      title: 'Query',
      description: 'A query',
      properties: {
        q: { type: 'STRING', minLength: 1, maxLength: 100, pattern: '^[a-z]+$', default: 'x', example: 'abc' },
        n: { type: 'INTEGER', minimum: 1, maximum: 10, format: 'int32' },
        tags: { type: 'ARRAY', items: { type: 'STRING' }, minItems: 1, maxItems: 3 },
      },
      required: ['q'],
    });
  });

  test('drops keywords outside the subset (additionalProperties, $schema, exclusive bounds, unsupported formats)', () => {
    expect(toGeminiSchema({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      additionalProperties: false,
      properties: { url: { type: 'string', format: 'uri' }, when: { type: 'string', format: 'date-time' }, x: { type: 'number', exclusiveMinimum: 0, multipleOf: 2 } },
    })).toEqual({
      type: 'OBJECT',
      properties: { url: { type: 'STRING' }, when: { type: 'STRING', format: 'date-time' }, x: { type: 'NUMBER' } },
    });
  });

  test('inlines $ref to $defs and definitions, laying sibling keywords over the target', () => {
    expect(toGeminiSchema({
      type: 'object',
      properties: {
        home: { $ref: '#/$defs/Address', description: 'Home address' },
        work: { $ref: '#/definitions/Address' },
      },
      $defs: { Address: { type: 'object', description: 'An address', properties: { city: { type: 'string' } } } },
      definitions: { Address: { type: 'object', properties: { zip: { type: 'string' } } } },
    })).toEqual({
      type: 'OBJECT',
      properties: {
        home: { type: 'OBJECT', description: 'Home address', properties: { city: { type: 'STRING' } } },
        work: { type: 'OBJECT', properties: { zip: { type: 'STRING' } } },
      },
    });
  });

  test('cuts a recursive reference to a free object instead of looping', () => {
    const schema = {
      $ref: '#/$defs/Node',
      $defs: { Node: { type: 'object', description: 'A tree node', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Node' } } } } },
    };
    expect(toGeminiSchema(schema)).toEqual({
      type: 'OBJECT',
      description: 'A tree node',
      properties: { name: { type: 'STRING' }, children: { type: 'ARRAY', items: { type: 'OBJECT', description: 'A tree node' } } },
    });
    const selfRoot = { type: 'object', properties: { next: { $ref: '#' } } };
    expect(toGeminiSchema(selfRoot)).toEqual({ type: 'OBJECT', properties: { next: { type: 'OBJECT', properties: { next: { type: 'OBJECT' } } } } });
  });

  test('cuts a mutual recursion and a deep non-recursive chain at the depth limit', () => {
    const mutual = { $ref: '#/$defs/A', $defs: { A: { type: 'object', properties: { b: { $ref: '#/$defs/B' } } }, B: { type: 'object', properties: { a: { $ref: '#/$defs/A' } } } } };
    expect(toGeminiSchema(mutual)).toEqual({ type: 'OBJECT', properties: { b: { type: 'OBJECT', properties: { a: { type: 'OBJECT' } } } } });
    const defs: Record<string, unknown> = {};
    for (let i = 0; i < MAX_REF_DEPTH + 5; i++) defs[`D${i}`] = { type: 'object', properties: { next: { $ref: `#/$defs/D${i + 1}` } } };
    let node = toGeminiSchema({ $ref: '#/$defs/D0', $defs: defs });
    let depth = 0;
    while (node.properties?.next) {
      node = node.properties.next;
      depth++;
    }
    expect(depth).toBe(MAX_REF_DEPTH);
  });

  test('turns nullable type lists, oneOf, const and allOf into the subset', () => {
    expect(toGeminiSchema({
      type: 'object',
      properties: {
        maybe: { type: ['string', 'null'] },
        either: { type: ['string', 'integer'], description: 'id' },
        choice: { oneOf: [{ type: 'string' }, { type: 'null' }] },
        union: { anyOf: [{ type: 'string' }, { type: 'number' }] },
        fixed: { const: 'yes' },
        merged: { allOf: [{ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }, { properties: { b: { type: 'number' } }, required: ['b'] }] },
      },
    }).properties).toEqual({
      maybe: { type: 'STRING', nullable: true },
      either: { anyOf: [{ type: 'STRING' }, { type: 'INTEGER' }], description: 'id' },
      choice: { type: 'STRING', nullable: true },
      union: { anyOf: [{ type: 'STRING' }, { type: 'NUMBER' }] },
      fixed: { type: 'STRING', enum: ['yes'] },
      merged: { type: 'OBJECT', properties: { a: { type: 'STRING' }, b: { type: 'NUMBER' } }, required: ['a', 'b'] },
    });
  });

  test('keeps string enums and moves other enums into the description', () => {
    expect(toGeminiSchema({ type: 'string', enum: ['a', 'b', null] })).toEqual({ type: 'STRING', enum: ['a', 'b'], nullable: true });
    expect(toGeminiSchema({ type: 'integer', enum: [1, 2], description: 'Level' })).toEqual({ type: 'INTEGER', description: 'Level (Allowed values: 1, 2)' });
  });

  test('keeps a property named __proto__ as a property (JSON.parse makes it one; an assignment would drop it)', () => {
    const schema = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"},"a":{"type":"number"}},"required":["__proto__"]}');
    expect(JSON.stringify(toGeminiSchema(schema))).toBe('{"type":"OBJECT","properties":{"__proto__":{"type":"STRING"},"a":{"type":"NUMBER"}},"required":["__proto__"]}');
  });

  test('omits an empty properties map and resolves an unknown reference to an empty schema', () => {
    expect(toGeminiSchema({ type: 'object', properties: {} })).toEqual({ type: 'OBJECT' });
    expect(toGeminiSchema({ type: 'object', properties: { x: { $ref: 'https://example.com/s.json' } } })).toEqual({ type: 'OBJECT', properties: { x: {} } });
  });
});

describe('generate-content schema subset -> JSON Schema', () => {
  test('lower-cases types, turns nullable into a null type and count strings into numbers', () => {
    expect(fromGeminiSchema({
      type: 'OBJECT',
      properties: { a: { type: 'STRING', nullable: true, enum: ['x'] }, b: { type: 'ARRAY', items: { type: 'INTEGER' }, maxItems: '3' } },
      required: ['a'],
      propertyOrdering: ['a', 'b'],
    })).toEqual({
      type: 'object',
      properties: { a: { type: ['string', 'null'], enum: ['x'] }, b: { type: 'array', items: { type: 'integer' }, maxItems: 3 } },
      required: ['a'],
    });
  });

  test('round-trips the function declaration fixture', () => {
    const parameters = readFixture('gemini/function-call-request.json').tools[0].functionDeclarations[0].parameters;
    expect(toGeminiSchema(fromGeminiSchema(parameters))).toEqual(parameters);
  });
});
