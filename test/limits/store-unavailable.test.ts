import { describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../../src/limits/store.ts';

describe('StoreUnavailableError', () => {
  it('names itself and keeps the cause', () => {
    const cause = new Error('ECONNREFUSED');
    const error = new StoreUnavailableError(cause);
    expect(error.name).toBe('StoreUnavailableError');
    expect(error.message).toBe('The limit store is unreachable.');
    expect(error.cause).toBe(cause);
    expect(String(error)).toBe('StoreUnavailableError: The limit store is unreachable.');
  });
});
