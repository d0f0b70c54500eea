import { readFile } from 'node:fs/promises';
import { LineCounter, parseDocument, isNode, type Document } from 'yaml';

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

/** Parses YAML text, keeping line and column of every node for error messages. */
export function parseConfig(text: string, file = 'gateway.yaml'): LoadedConfig {
  const lineCounter = new LineCounter();
  const doc: Document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const problems: Problem[] = [...doc.errors, ...doc.warnings].map((error) => {
    const pos = lineCounter.linePos(error.pos[0]);
    return { file, line: pos.line, col: pos.col, message: error.message.split('\n')[0] };
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
