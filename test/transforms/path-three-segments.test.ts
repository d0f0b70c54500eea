import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/errors.ts';
import { deleteAt, getAt, hasAt, readPath, setAt } from '../../src/transforms/path.ts';

const PATH = readPath('input.parameters.size');

describe('paths of three segments', () => {
  it('are split into their three names, once per distinct path', () => {
    expect(PATH).toEqual(['input', 'parameters', 'size']);
    expect(readPath('input.parameters.size')).toBe(PATH);
    expect(Object.isFrozen(PATH)).toBe(true);
  });

  it('read the leaf, and nothing when the middle object is missing or not an object', () => {
    expect(getAt({ input: { parameters: { size: '1024*1024' } } }, PATH)).toBe('1024*1024');
    expect(getAt({ input: {} }, PATH)).toBeUndefined();
    expect(getAt({ input: { parameters: 'x' } }, PATH)).toBeUndefined();
    expect(hasAt({ input: { parameters: { size: null } } }, PATH)).toBe(true);
    expect(hasAt({ input: { parameters: {} } }, PATH)).toBe(false);
  });

  it('set the leaf, creating both missing objects and copying only the objects on the way', () => {
    const sibling = { keep: 1 };
    const body = { input: { prompt: 'p', sibling } };
    const result = setAt(body, PATH, '512*512');
    expect(result).toEqual({ input: { prompt: 'p', sibling, parameters: { size: '512*512' } } });
    expect((result.input as { sibling: object }).sibling).toBe(sibling);
    expect(body).toEqual({ input: { prompt: 'p', sibling } });
  });

  it('set the leaf next to the fields the middle object has', () => {
    const body = { input: { parameters: { n: 2, size: 'old' } } };
    expect(setAt(body, PATH, 'new')).toEqual({ input: { parameters: { n: 2, size: 'new' } } });
    expect(body.input.parameters.size).toBe('old');
  });

  it('refuse to set through a middle value that is not an object, naming the two first segments', () => {
    let error: unknown;
    try {
      setAt({ input: { parameters: 'large' } }, PATH, 'x');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ status: 400, code: 'invalid_type', param: 'input.parameters', message: '`input.parameters` must be an object to hold `input.parameters.size`.' });
    expect(() => setAt({ input: 3 }, PATH, 'x')).toThrow('`input` must be an object to hold `input.parameters.size`.');
  });

  it('delete the leaf, keeping its siblings and the original untouched', () => {
    const body = { input: { parameters: { size: 's', n: 1 }, prompt: 'p' } };
    expect(deleteAt(body, PATH)).toEqual({ input: { parameters: { n: 1 }, prompt: 'p' } });
    expect(body.input.parameters).toEqual({ size: 's', n: 1 });
  });

  it('answer the same object when there is nothing to delete at any depth', () => {
    for (const body of [{}, { input: {} }, { input: { parameters: {} } }, { input: { parameters: 'x' } }, { input: 'x' }]) {
      expect(deleteAt(body, PATH)).toBe(body);
    }
  });
});
