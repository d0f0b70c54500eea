import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROTOCOLS } from '../../src/protocols/index.ts';
import { STYLES } from '../../src/protocols/styles.ts';

function listSources(path: string): string[] {
  if (!statSync(path).isDirectory()) return path.endsWith('.ts') ? [path] : [];
  return readdirSync(path).flatMap((name) => listSources(join(path, name)));
}

/** A source text without its comments, so prose may name a vendor. */
function removeComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/** `file:line: text` of every code line of src/ outside `src/protocols/<name>/` naming `name` (any case, inside identifiers too). */
function findMentions(name: string, files: readonly string[]): string[] {
  const pattern = new RegExp(name, 'i');
  return files
    .filter((file) => !file.startsWith(`src/protocols/${name}/`))
    .flatMap((file) =>
      removeComments(readFileSync(file, 'utf8'))
        .split('\n')
        .flatMap((line, i) => (pattern.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
}

/**
 * Mentions that are not the protocol: `images.shape: openai` names a request-body shape of gateway.yaml
 * (its vocabulary, kept for existing configs); Bedrock model ids name their maker (`anthropic.claude-...`).
 */
const KNOWN = [/^src\/config\/(compile|types)\.ts:\d+: .*shape.*'openai'/, /^src\/protocols\/bedrock\/write-thinking\.ts:\d+: .*anthropic\\.claude/];

/** The protocol folder a path is in (`src/protocols/<name>/`). */
const FOLDER = /(?:^|\/)src\/protocols\/([^/]+)\//;

/** `file: specifier` of every import or re-export in `files` reaching into another protocol's folder. */
function findCrossFolderImports(files: readonly string[]): string[] {
  return files.flatMap((file) => {
    const own = FOLDER.exec(file)?.[1];
    if (!own) return [];
    const specifiers = [...readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((match) => match[1]!);
    return specifiers.flatMap((specifier) => {
      const target = FOLDER.exec(join(dirname(file), specifier))?.[1];
      return target && target !== own && target in PROTOCOLS ? [`${file}: ${specifier}`] : [];
    });
  });
}

describe('a protocol is one folder plus one registry entry', () => {
  const files = listSources('src');

  it.each(Object.keys(PROTOCOLS))('no file of src/ outside src/protocols/%s/ names it but the registry (and the style registry for a style)', (name) => {
    const found = findMentions(name, files).filter((mention) => !KNOWN.some((known) => known.test(mention)));
    const registry = found.filter((mention) => mention.startsWith('src/protocols/index.ts:'));
    // The registry entry: the adapter's import and its key.
    expect(registry).toEqual([expect.stringMatching(new RegExp(`import .* from './${name}/index\\.ts';$`)), expect.stringMatching(new RegExp(`^src/protocols/index\\.ts:\\d+: ${name}: \\w+,$`))]);
    const rest = found.filter((mention) => !mention.startsWith('src/protocols/index.ts:'));
    if (name in STYLES) expect(rest.every((mention) => mention.startsWith('src/protocols/styles.ts:'))).toBe(true);
    else expect(rest).toEqual([]);
  });

  it('has no protocol folder import from another protocol folder (shared simulator code lives in src/simulators/)', () => {
    expect(findCrossFolderImports(files)).toEqual([]);
  });

  it('finds a mention outside the folder when there is one (the check above can fail)', () => {
    const planted = findMentions('dashscope', ['src/protocols/index.ts', 'src/protocols/dashscope/index.ts']);
    expect(planted).toEqual([expect.stringContaining("from './dashscope/index.ts'"), expect.stringContaining('dashscope: dashscopeAdapter')]);
    expect(findMentions('bedrock', ['src/runtime/dispatch-table.ts'])).toEqual([]);
  });

  it('finds an import from another protocol folder when there is one (the folder check above can fail)', () => {
    const root = mkdtempSync(join(tmpdir(), 'gw-recipe-'));
    const file = join(root, 'src', 'protocols', 'bedrock', 'simulator', 'borrow.ts');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, "import { signClaudeThinking } from '../../anthropic/simulator/thinking.ts';\nimport { isObject } from '../../../simulators/text.ts';\n");
    try {
      expect(findCrossFolderImports([file])).toEqual([`${file}: ../../anthropic/simulator/thinking.ts`]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
