/**
 * `npx tsx scripts/find-import-loops.ts [src]`: the import loops of the source tree, between files and
 * between top-level folders (type-only imports count: they tie the files together for a reader too).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+'([^']+)'|(?:^|\n)\s*import\s+'([^']+)'/g;

function listSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return listSources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The relative imports (type-only ones included) of every `.ts` file under `root`, by path relative to `root`. */
export function readImportGraph(root: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of listSources(root)) {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(IMPORT)]
      .map((match) => match[1] ?? match[2])
      .filter((spec) => spec.startsWith('.'))
      .map((spec) => relative(root, resolve(dirname(file), spec)))
      .filter((target) => !target.startsWith('..'));
    graph.set(relative(root, file), [...new Set(targets)]);
  }
  return graph;
}

/** The groups of nodes that import each other, directly or not (strongly connected components of two or more). */
export function findImportLoops(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const loops: string[][] = [];
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1) loops.push(group.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return loops;
}

/** The import graph between folders: an edge from one top-level folder of `src/` to another. */
export function toFolderGraph(graph: Map<string, string[]>): Map<string, string[]> {
  const folderOf = (file: string) => file.split('/')[0];
  const folders = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    const edges = folders.get(folderOf(file)) ?? new Set<string>();
    for (const target of targets) if (folderOf(target) !== folderOf(file)) edges.add(folderOf(target));
    folders.set(folderOf(file), edges);
  }
  return new Map([...folders].map(([folder, edges]) => [folder, [...edges]]));
}

/** The pairs of top-level folders that import each other directly, as `a<->b`. */
export function findFolderPairs(graph: Map<string, string[]>): string[] {
  const folders = toFolderGraph(graph);
  const pairs: string[] = [];
  for (const [a, targets] of folders) for (const b of targets) if (a < b && folders.get(b)?.includes(a)) pairs.push(`${a}<->${b}`);
  return pairs.sort();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const graph = readImportGraph(process.argv[2] ?? 'src');
  for (const loop of findImportLoops(graph)) console.log(`file loop: ${loop.join(' ')}`);
  for (const pair of findFolderPairs(graph)) console.log(`folder pair: ${pair}`);
  for (const loop of findImportLoops(toFolderGraph(graph))) console.log(`folder loop: ${loop.join(' ')}`);
}
