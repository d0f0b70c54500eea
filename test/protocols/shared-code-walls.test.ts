import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findImportLoops, readImportGraph } from '../../scripts/find-import-loops.ts';
import { PROTOCOLS } from '../../src/protocols/index.ts';

/** Folders (and files) of src/ that know protocols only by name: everything but the protocol folders and config. */
const PROTOCOL_FOLDERS = new Set(['protocols', 'config']);
const SHARED = readdirSync('src').filter((name) => !PROTOCOL_FOLDERS.has(name)).map((name) => join('src', name));

function listSources(path: string): string[] {
  if (!statSync(path).isDirectory()) return path.endsWith('.ts') ? [path] : [];
  return readdirSync(path).flatMap((name) => listSources(join(path, name)));
}

/** A source text without its comments, so prose may name a vendor. */
function removeComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/** The string literals of a source text (comments removed first). */
function listStringLiterals(text: string): string[] {
  return [...removeComments(text).matchAll(/'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`/g)].map(([literal]) => literal);
}

/** The object keys (`name:`) and property reads (`.name`) of a source text that are protocol names. */
function listNameKeys(text: string, names: string[]): string[] {
  const key = new RegExp(`(?:\\.(${names.join('|')})\\b|\\b(${names.join('|')})\\s*:)`, 'g');
  return [...removeComments(text).matchAll(key)].map(([found]) => found);
}

describe('the walls around protocol knowledge', () => {
  const names = new RegExp(`\\b(${Object.keys(PROTOCOLS).join('|')})\\b`, 'i');

  it('no shared code (runtime, errors, routing, limits, SSE, server, images, codegen) holds a protocol or style name in a string', () => {
    const found = SHARED.flatMap(listSources).flatMap((file) =>
      listStringLiterals(readFileSync(file, 'utf8'))
        .filter((literal) => names.test(literal))
        .map((literal) => `${file}: ${literal}`),
    );
    expect(SHARED).toEqual(expect.arrayContaining(['src/runtime', 'src/errors.ts', 'src/routing', 'src/limits', 'src/sse']));
    expect(found).toEqual([]);
  });

  it('no shared code keys a table by a protocol or style name, or reads one as a property', () => {
    const found = SHARED.flatMap(listSources).flatMap((file) =>
      listNameKeys(readFileSync(file, 'utf8'), Object.keys(PROTOCOLS)).map((key) => `${file}: ${key}`),
    );
    expect(found).toEqual([]);
  });

  it('finds a style name in a string, a key or a property when one is there (the checks above can fail)', () => {
    expect(listNameKeys('const T = { gemini: 1 }; sims.dashscope.url; // openai: x', Object.keys(PROTOCOLS))).toEqual(['gemini:', '.dashscope']);
    expect(listStringLiterals(`if (ctx.style === 'gemini') x(); // 'openai' in a comment`).filter((l) => names.test(l))).toEqual(["'gemini'"]);
    expect(listStringLiterals('/* "anthropic" */ const a = `x-${"y"}`;').filter((l) => names.test(l))).toEqual([]);
  });

  it('the protocol folders import neither the runtime nor the image pipeline', () => {
    const graph = readImportGraph('src');
    const imports = [...graph].filter(([file]) => file.startsWith('protocols/')).flatMap(([file, targets]) =>
      targets.filter((target) => /^(runtime|images)\//.test(target)).map((target) => `${file} -> ${target}`),
    );
    expect(imports).toEqual([]);
  });

  it('no import loop between files passes through the protocol folders or errors.ts', () => {
    const loops = findImportLoops(readImportGraph('src')).filter((loop) => loop.some((file) => file.startsWith('protocols/') || file === 'errors.ts'));
    expect(loops).toEqual([]);
  });
});
