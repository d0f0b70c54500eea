/** An item of an {@link InFlightList}: the list keeps its place in it on the item itself. */
export interface InFlightItem {
  /** Its index in the list it is in; -1 when in none. */
  inFlightSlot: number;
}

/**
 * The requests being answered: an array with each item's index kept on the item, so that adding and
 * deleting cost no search and no hash. Not a Set: a Set added to and deleted from once per request
 * rehashes into a new table every few dozen requests, and each table it leaves keeps its entries and a
 * link to the next one (for iterators still on it). Once one such table was promoted to the old
 * generation, the scavenger kept every later table, and every request in them, alive: each request's
 * whole graph (about 3 KB) was promoted and only a full collection freed it.
 */
export class InFlightList<T extends InFlightItem> {
  private readonly items: T[] = [];

  /** How many items are in the list. */
  get size(): number {
    return this.items.length;
  }

  /** Adds an item that is in no list. */
  add(item: T): void {
    item.inFlightSlot = this.items.length;
    this.items.push(item);
  }

  /** Removes an item; false when it was not in this list. */
  delete(item: T): boolean {
    const slot = item.inFlightSlot;
    if (slot < 0 || this.items[slot] !== item) return false;
    const last = this.items.pop()!;
    if (last !== item) {
      this.items[slot] = last;
      last.inFlightSlot = slot;
    }
    item.inFlightSlot = -1;
    return true;
  }

  /** The items as they are now (a copy: deleting while iterating is safe). */
  [Symbol.iterator](): Iterator<T> {
    return this.items.slice()[Symbol.iterator]();
  }
}
