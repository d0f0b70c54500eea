import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Document } from 'yaml';
import { readPlainYaml } from './read-plain-yaml.ts';

const require = createRequire(import.meta.url);

/** yaml's document API, loaded when a text first needs it: a plain config (read by js-yaml) with no problem never does. */
function loadYaml(): typeof import('yaml') {
  return require('yaml');
}

/** A config problem with its place in the file, printed as `file:line:col: message`. */
export interface Problem {
  file: string;
  line: number;
  col: number;
  message: string;
}

/** A parsed config file: its plain value, and a way to find the line and column of any path in it. */
export interface LoadedConfig {
  file: string;
  value: unknown;
  problems: Problem[];
  /** Position of the node at `path` (falls back to the nearest existing parent). */
  locate(path: readonly (string | number)[]): { line: number; col: number };
}

/**
 * Parses YAML text; the line and column of a node are found when a problem asks for them. Plain text (no
 * anchors, tags or merge keys) that js-yaml reads without a problem is read by it; the rest by yaml's
 * document API, which places every problem.
 */
export function parseConfig(text: string, file = 'gateway.yaml'): LoadedConfig {
  const value = readPlainYaml(text);
  if (value === undefined) return parseConfigDocument(text, file);
  let placed: LoadedConfig | undefined;
  const locate = (path: readonly (string | number)[]) => (placed ??= parseConfigDocument(text, file)).locate(path);
  return { file, value, problems: [], locate };
}

/** Parses YAML text with yaml's document API, keeping line and column of every node for error messages. */
function parseConfigDocument(text: string, file: string): LoadedConfig {
  const { LineCounter, isNode, isScalar, parseDocument, visit } = loadYaml();
  const lineCounter = new LineCounter();
  // yaml's own uniqueKeys check is quadratic in a map's size (seconds for 10,000 models): keys are
  // checked below with a set per map instead.
  const doc: Document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: false });
  const problems: Problem[] = [...doc.errors, ...doc.warnings].map((error) => {
    const pos = lineCounter.linePos(error.pos[0]);
    return { file, line: pos.line, col: pos.col, message: error.message.split('\n')[0] };
  });
  visit(doc, {
    Map(_, map) {
      const seen = new Set<unknown>();
      for (const pair of map.items) {
        const key = isScalar(pair.key) ? pair.key.value : pair.key;
        if (!seen.has(key)) {
          seen.add(key);
          continue;
        }
        const pos = lineCounter.linePos(isNode(pair.key) && pair.key.range ? pair.key.range[0] : 0);
        problems.push({ file, line: pos.line, col: pos.col, message: `Map keys must be unique; "${String(key)}" is repeated` });
      }
    },
  });
  const locate = (path: readonly (string | number)[]) => {
    for (let depth = path.length; depth >= 0; depth--) {
      const node = depth === 0 ? doc.contents : doc.getIn(path.slice(0, depth), true);
      if (isNode(node) && node.range) return lineCounter.linePos(node.range[0]);
    }
    return { line: 1, col: 1 };
  };
  const value = problems.length ? undefined : doc.toJS({ maxAliasCount: 100 });
  return { file, value, problems, locate };
}

/** Reads and parses a config file. */
export async function readConfigFile(file: string): Promise<LoadedConfig> {
  return parseConfig(await readFile(file, 'utf8'), file);
}
