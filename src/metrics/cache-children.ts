/** A metric with labels: what `labels(...)` gives back is kept per value combination. */
interface Labelled<Child> {
  labels(...values: string[]): Child;
}

/**
 * Remembers the child a metric gives for each combination of label values, so that a request finds its
 * child with one Map lookup instead of prom-client building, checking and hashing a labels object on every
 * `labels()` call (measured: that hashing was the largest cost of recording a request). Combinations are
 * bounded by the labels' own bounds (see labels.ts), so the map is too.
 */
export function cacheChildren<Child>(metric: Labelled<Child>): (...values: string[]) => Child {
  const children = new Map<string, Child>();
  return (...values) => {
    const key = values.join('\u0000');
    let child = children.get(key);
    if (child === undefined) children.set(key, (child = metric.labels(...values)));
    return child;
  };
}
