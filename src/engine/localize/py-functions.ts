import type { FunctionSpan } from './types.js';

const DEF = /^(\s*)(?:async\s+)?def\s+(\w+)|^(\s*)class\s+(\w+)/;

/**
 * The functions of a Python file by indentation: a `def` runs to the last line indented deeper than it
 * before code indented as deep or less. Methods are named `Class.method`.
 */
export function pythonFunctions(text: string): FunctionSpan[] {
  const lines = text.split('\n');
  const spans: FunctionSpan[] = [];
  const open: { indent: number; name: string; start: number; isDef: boolean; last: number }[] = [];
  const close = (indent: number): void => {
    while (open.length > 0 && open.at(-1)!.indent >= indent) {
      const block = open.pop()!;
      if (block.isDef) spans.push({ name: block.name, start: block.start, end: block.last });
    }
  };
  let continued = false;
  let depth = 0;
  lines.forEach((raw, i) => {
    const line = raw.replace(/\s+$/, '');
    if (line.trim() === '' || line.trim().startsWith('#')) return;
    const indent = line.length - line.trimStart().length;
    // A line inside brackets or after a backslash belongs to the statement above.
    if (!continued) close(indent);
    for (const block of open) block.last = i + 1;
    const m = continued ? null : DEF.exec(line);
    if (m) {
      const isDef = m[2] !== undefined;
      const owner = open
        .filter((b) => !b.isDef)
        .map((b) => b.name)
        .at(-1);
      const name = isDef ? (owner && open.at(-1)?.isDef === false ? `${owner}.${m[2]}` : m[2]!) : m[4]!;
      open.push({ indent: (m[1] ?? m[3] ?? '').length, name, start: i + 1, isDef, last: i + 1 });
    }
    for (const c of line.replace(/(['"]).*?\1/g, '').replace(/#.*$/, ''))
      depth += '([{'.includes(c) ? 1 : ')]}'.includes(c) ? -1 : 0;
    depth = Math.max(0, depth);
    continued = depth > 0 || line.endsWith('\\');
  });
  close(-1);
  return spans;
}
