/**
 * Stable, readable JSON for fixture files: 2-space indentation, and any array or object
 * whose one-line form fits in the line width is kept on one line (`[1, 2]`,
 * `{ "cmd": ["XLEN", "s"], "reply": 0 }`). The output parses back to the same value, and
 * formatting already formatted text gives the same text.
 */
import type { Json } from './matchers';

/** Line width the one-line forms must fit in (indentation included). */
export const LINE_WIDTH = 120;

function inline(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(inline).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    return `{ ${entries.map(([k, v]) => `${JSON.stringify(k)}: ${inline(v)}`).join(', ')} }`;
  }
  return JSON.stringify(value);
}

function format(value: Json, indent: string, prefixLength: number, forceBreak: boolean): string {
  const oneLine = inline(value);
  const isContainer = value !== null && typeof value === 'object';
  if (!isContainer || (!forceBreak && indent.length + prefixLength + oneLine.length <= LINE_WIDTH)) return oneLine;
  const inner = indent + '  ';
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((v) => inner + format(v, inner, 0, false)).join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return '{}';
  return `{\n${entries
    .map(([k, v]) => {
      const key = `${JSON.stringify(k)}: `;
      return inner + key + format(v, inner, key.length, false);
    })
    .join(',\n')}\n${indent}}`;
}

/** Formats a fixture document; the top-level object is always broken into lines. */
export function formatJson(value: Json): string {
  return format(value, '', 0, true) + '\n';
}
