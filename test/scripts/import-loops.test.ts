/**
 * src/ has no import loops: scripts/find-import-loops.ts finds no two top-level folders importing each
 * other and no files importing each other in a loop. A loop that comes back, or a new one, fails the test.
 */
import { describe, expect, it } from 'vitest';
import { findFolderPairs, findImportLoops, readImportGraph } from '../../scripts/find-import-loops.ts';

const KNOWN_PAIRS: string[] = [];
const KNOWN_FILE_LOOPS: string[] = [];

describe('the import loops of src/', () => {
  const graph = readImportGraph('src');

  it('no two top-level folders import each other', () => {
    expect(findFolderPairs(graph)).toEqual(KNOWN_PAIRS);
  });

  it('no files import each other in a loop', () => {
    expect(findImportLoops(graph).map((loop) => loop.join(' ')).sort()).toEqual(KNOWN_FILE_LOOPS);
  });

  it('errors.ts, the composition root and the modules split off the runtime import nothing that imports them back', () => {
    const pairs = findFolderPairs(graph).filter((pair) => /\b(errors\.ts|gateway|images|response-store|spend|transforms|config|admin|console)\b/.test(pair));
    expect(pairs).toEqual([]);
  });

  it('finds a loop between folders and between files when there is one (the checks above can fail)', () => {
    const looped = new Map([
      ['runtime/a.ts', ['images/b.ts']],
      ['images/b.ts', ['runtime/c.ts']],
      ['runtime/c.ts', ['images/b.ts']],
      ['errors.ts', []],
    ]);
    expect(findFolderPairs(looped)).toEqual(['images<->runtime']);
    expect(findImportLoops(looped)).toEqual([['images/b.ts', 'runtime/c.ts']]);
  });

  it('counts type-only imports and re-exports as imports', () => {
    const dir = readImportGraph('test/fixtures/import-loops');
    expect(findFolderPairs(dir)).toEqual(['a<->b']);
  });
});
