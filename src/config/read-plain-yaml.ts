import { FAILSAFE_SCHEMA, Type, load, types } from 'js-yaml';

/**
 * Text both readers read alike: every line blank, a whole-line comment, or block structure (`- ` items and
 * `key:` entries, indented by spaces) holding one simple scalar or a one-line flow sequence of them. Plain
 * keys start with a letter (never null or a boolean); scalars are plain (no indicator first, no `: ` or
 * ` #` inside), or quoted without escapes. Anything else (anchors, tags, block scalars, multi-line or
 * escaped strings, tabs, trailing comments, flow maps) is left to yaml's document API: the two readers
 * disagree on many malformed texts, and the fast reader must never accept one that yaml refuses.
 */
const KEY = String.raw`(?:(?!(?:null|Null|NULL|true|True|TRUE|false|False|FALSE):)[A-Za-z_][\w./-]*|"[^"\\]*"|'[^']*')`;
const PLAIN = String.raw`(?:-?[\w./+(~$]|-(?=[\d.]))(?:[\w./+=@$()~{}-]|:(?=[^\s,\]])| (?=[^\s#:]))*`;
const QUOTED = String.raw`(?:"[^"\\]*"|'[^']*')`;
const FLOW_PLAIN = String.raw`(?:-?[\w./+(~$]|-(?=[\d.]))(?:[\w./+=@$()~-]|:(?=[^\s,\]])| (?=[^\s#:,\]]))*`;
const FLOW_ITEM = `(?:${FLOW_PLAIN}|${QUOTED})`;
const SCALAR = `(?:${PLAIN}|${QUOTED}|\\[ ?(?:${FLOW_ITEM}(?:, ${FLOW_ITEM})*)? ?\\]|\\{\\})`;
const PLAIN_LINE = new RegExp(`^(?!.* $)(?: *#.*| *(?:- )*(?:${KEY}:(?: ${SCALAR})?|${SCALAR})?)$`);

function isPlainText(text: string): boolean {
  let from = 0;
  while (from <= text.length) {
    let to = text.indexOf('\n', from);
    if (to === -1) to = text.length;
    if (!PLAIN_LINE.test(text.slice(from, to))) return false;
    from = to + 1;
  }
  return true;
}

/** Numbers as YAML 1.2's core schema reads them (yaml's default): decimal, 0o and 0x integers, floats, .inf, .nan. */
const INTEGER = /^[-+]?[0-9]+$/;
const OCTAL = /^0o[0-7]+$/;
const HEX = /^0x[0-9a-fA-F]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$|^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;
const SPECIAL = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;

function readCoreNumber(text: string): number {
  if (OCTAL.test(text)) return parseInt(text.slice(2), 8);
  if (HEX.test(text)) return parseInt(text.slice(2), 16);
  if (INTEGER.test(text)) return parseInt(text, 10);
  if (SPECIAL.test(text)) return text.endsWith('nan') || text.endsWith('NaN') || text.endsWith('NAN') ? NaN : text.startsWith('-') ? -Infinity : Infinity;
  return parseFloat(text);
}

const coreNumber = new Type('tag:yaml.org,2002:float', {
  kind: 'scalar',
  resolve: (text: string | null) => text !== null && (INTEGER.test(text) || OCTAL.test(text) || HEX.test(text) || FLOAT.test(text) || SPECIAL.test(text)),
  construct: readCoreNumber,
});

/** js-yaml with exactly the scalars of yaml's core schema (its own reads 0b.. and -0x.. as numbers, 1e400 as text). */
const CORE = FAILSAFE_SCHEMA.extend({ implicit: [types.null, types.bool, coreNumber] });

/**
 * The plain value of a config's YAML text, read fast (about five times faster than yaml's document API,
 * which keeps every node's position: seconds for 10,000 models), or undefined when the text is not plain
 * (see {@link isPlainText}) or js-yaml refuses it (a syntax error, a
 * repeated key): then the document API reads it and places its problems.
 */
export function readPlainYaml(text: string): unknown {
  if (!isPlainText(text)) return undefined;
  try {
    return load(text, { schema: CORE, json: false }) ?? undefined;
  } catch {
    return undefined;
  }
}
