/**
 * The cells of one metric family by label values: `getCell(...values)` finds the series of a combination of
 * label values (in `labelNames` order) with one Map lookup, making it with `makeCell` on first use.
 */
export function createCells<Cell>(labelNames: readonly string[], makeCell: (labels: Record<string, string>) => Cell) {
  const cells = new Map<string, Cell>();
  return {
    cells,
    getCell(...values: string[]): Cell {
      const key = values.join('\u0000');
      let cell = cells.get(key);
      if (cell === undefined) {
        const labels: Record<string, string> = {};
        labelNames.forEach((label, i) => (labels[label] = values[i]));
        cells.set(key, (cell = makeCell(labels)));
      }
      return cell;
    },
  };
}
