import { checkConfig } from './check.ts';
import { diffConfigs, type ConfigChange } from './diff.ts';
import { listSchemaIds } from './index.ts';
import { readConfigFile, type Problem } from './load.ts';
import { getShapeValidator } from './shape-validator.ts';

/** The changes between two config files, or the problems that stop them being compared. */
export interface FileDiff {
  changes: ConfigChange[];
  /** YAML, schema and reference problems of either file (as `gateway check` reports them); unreadable files too. */
  problems: Problem[];
}

async function readChecked(file: string, schemaIds: ReadonlySet<string>): Promise<{ value?: unknown; problems: Problem[] }> {
  try {
    const loaded = await readConfigFile(file);
    const problems = checkConfig(loaded, schemaIds, getShapeValidator());
    return problems.length ? { problems } : { value: loaded.value, problems };
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    return { problems: [{ file, line: 1, col: 1, message: `cannot read the file (${reason})` }] };
  }
}

/** Checks both files as `gateway check` does and, when both are clean, diffs them in YAML terms. */
export async function diffConfigFiles(oldFile: string, newFile: string): Promise<FileDiff> {
  const schemaIds = await listSchemaIds();
  const [before, after] = await Promise.all([readChecked(oldFile, schemaIds), readChecked(newFile, schemaIds)]);
  const problems = [...before.problems, ...after.problems];
  if (problems.length) return { changes: [], problems };
  return { changes: diffConfigs(before.value, after.value), problems };
}
