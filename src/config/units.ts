const DURATION_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const SIZE_BYTES: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/** Milliseconds of a duration string such as `600s`, `500ms` or `30d` (already schema-checked). */
export function parseDuration(text: string): number {
  const match = /^(\d+)(ms|s|m|h|d)$/.exec(text);
  if (!match) throw new Error(`not a duration: ${text}`);
  return Number(match[1]) * DURATION_MS[match[2]];
}

/** Bytes of a size string such as `25mb` (already schema-checked). */
export function parseSize(text: string): number {
  const match = /^(\d+)(b|kb|mb|gb)$/.exec(text);
  if (!match) throw new Error(`not a size: ${text}`);
  return Number(match[1]) * SIZE_BYTES[match[2]];
}

/** The variable name of an `env:NAME` reference. */
export function envName(ref: string): string {
  return ref.slice('env:'.length);
}
