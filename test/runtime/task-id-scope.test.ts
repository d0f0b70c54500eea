import { describe, expect, it } from 'vitest';
import { decodeTaskId, encodeTaskId } from '../../src/runtime/task-id.ts';

const SECRET = 'task-secret-for-tests';

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
}

describe('task ids with a scope', () => {
  it('open only in their own scope and for their own key', () => {
    const scoped = encodeTaskId({ model: 'wan2.2-t2v-plus', task: 'v-1', key: 'team', scope: 'native:dashscope' }, SECRET);
    expect(decodeTaskId(scoped, SECRET, 'team', 'native:dashscope')).toEqual({ model: 'wan2.2-t2v-plus', task: 'v-1', key: 'team', scope: 'native:dashscope' });
    expect(codeOf(() => decodeTaskId(scoped, SECRET, 'team'))).toBe('task_not_found');
    expect(codeOf(() => decodeTaskId(scoped, SECRET, 'team', 'native:acme'))).toBe('task_not_found');
    expect(codeOf(() => decodeTaskId(scoped, SECRET, 'other', 'native:dashscope'))).toBe('task_not_found');
  });

  it('keep unscoped (/v1/videos) ids out of every scope', () => {
    const plain = encodeTaskId({ model: 'sora-2', task: 'video_1', key: 'team' }, SECRET);
    expect(decodeTaskId(plain, SECRET, 'team')).toEqual({ model: 'sora-2', task: 'video_1', key: 'team' });
    expect(codeOf(() => decodeTaskId(plain, SECRET, 'team', 'native:dashscope'))).toBe('task_not_found');
  });
});
