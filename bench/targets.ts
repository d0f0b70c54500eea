/**
 * The targets and how a measured pair is judged against them. `base` is the reference measured
 * in the same run (the floor, or the 10-model gateway); `subject` is what is judged (the gateway).
 */

/** A target: a ratio to the base (at least / at most), an allowance over the base, or an absolute ceiling. */
export type Target =
  | { kind: 'min-ratio'; ratio: number }
  | { kind: 'max-ratio'; ratio: number }
  | { kind: 'max-over'; amount: number; unit: string }
  | { kind: 'max-value'; value: number; unit: string };

/** The verdict of one target. */
export interface Verdict {
  pass: boolean;
  /** The target as printed in the table, e.g. `>= 0.9x`. */
  text: string;
}

/** How a target is printed. */
export function describeTarget(target: Target): string {
  switch (target.kind) {
    case 'min-ratio':
      return `>= ${target.ratio}x`;
    case 'max-ratio':
      return `<= ${target.ratio}x`;
    case 'max-over':
      return `<= base + ${target.amount} ${target.unit}`;
    case 'max-value':
      return `< ${target.value.toLocaleString('en-US')} ${target.unit}`;
  }
}

/** Judges a measured pair against a target; a missing or non-finite value fails. */
export function judgeTarget(target: Target, base: number | undefined, subject: number): Verdict {
  const text = describeTarget(target);
  if (!Number.isFinite(subject)) return { pass: false, text };
  if (target.kind === 'max-value') return { pass: subject < target.value, text };
  if (base === undefined || !Number.isFinite(base) || base <= 0) return { pass: false, text };
  switch (target.kind) {
    case 'min-ratio':
      return { pass: subject / base >= target.ratio, text };
    case 'max-ratio':
      return { pass: subject / base <= target.ratio, text };
    case 'max-over':
      return { pass: subject - base <= target.amount, text };
  }
}
