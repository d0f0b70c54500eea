/** Longest text shown in one cell: longer client-controlled values are cut. */
const MAX_TEXT = 200;

/** A value as text for the page, cut to {@link MAX_TEXT} characters. */
export function clip(value: unknown): string {
  const text = value === undefined || value === null ? '' : String(value);
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text;
}

type Child = Node | string | number | undefined | null | false;
interface Props {
  [attribute: string]: string | number | boolean | undefined | ((event: Event) => void);
}

/**
 * Makes an element. Every child that is not a node becomes a text node (clipped), every prop an attribute
 * (`on*` functions become listeners): data never reaches the page as markup (no innerHTML anywhere).
 */
export function el(tag: string, props: Props = {}, ...children: Child[]): HTMLElement {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (typeof value === 'function') element.addEventListener(name.slice(2).toLowerCase(), value);
    else if (value === true) element.setAttribute(name, '');
    else if (value !== undefined && value !== false) element.setAttribute(name, String(value));
  }
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(clip(child)));
  }
  return element;
}

/** Replaces an element's children. */
export function fill(parent: Element, ...children: Node[]): void {
  parent.replaceChildren(...children);
}

/** A table of rows under a header row; each cell a node or text. */
export function table(headers: string[], rows: Child[][], props: Props = {}): HTMLElement {
  return el(
    'table',
    props,
    el('thead', {}, el('tr', {}, ...headers.map((h) => el('th', { scope: 'col' }, h)))),
    el('tbody', {}, ...rows.map((cells) => el('tr', {}, ...cells.map((cell) => el('td', typeof cell === 'number' ? { class: 'num' } : {}, cell))))),
  );
}
