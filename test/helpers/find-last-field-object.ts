/** JSON's whitespace bytes. */
const SPACES = [0x20, 0x0a, 0x0d, 0x09];

function skipSpaces(body: Buffer, at: number): number {
  while (at < body.length && SPACES.includes(body[at])) at++;
  return at;
}

/** The index of the `}` closing the object opened at `start`, braces matched outside strings; -1 when it never closes. */
function findBraceEnd(body: Buffer, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < body.length; i++) {
    const byte = body[i];
    if (inString) {
      if (byte === 0x5c) i++;
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) inString = true;
    else if (byte === 0x7b) depth++;
    else if (byte === 0x7d && --depth === 0) return i;
  }
  return -1;
}

/**
 * A test oracle for the usage readers: the byte span (`[open, close]`, both braces included) of the object
 * after the last unescaped `"name":` of `body`, found the slow and obvious way (matching braces outside
 * strings); undefined when there is none.
 */
export function findLastFieldObject(body: Buffer, name: string): [number, number] | undefined {
  const at = body.lastIndexOf(`"${name}"`);
  if (at <= 0 || body[at - 1] === 0x5c) return undefined;
  let i = skipSpaces(body, at + name.length + 2);
  if (body[i] !== 0x3a) return undefined;
  i = skipSpaces(body, i + 1);
  if (body[i] !== 0x7b) return undefined;
  const end = findBraceEnd(body, i);
  return end === -1 ? undefined : [i, end];
}
