import type { FunctionSpan } from './types.js';

/** Where the braces opened on `from` close, skipping strings, runes and comments; the closing line (1-based). */
function closingLine(lines: readonly string[], from: number): number {
  let depth = 0;
  let opened = false;
  let block = false;
  for (let i = from; i < lines.length; i++) {
    const line = lines[i]!;
    for (let k = 0; k < line.length; k++) {
      const c = line[k]!;
      if (block) {
        if (c === '*' && line[k + 1] === '/') {
          block = false;
          k++;
        }
        continue;
      }
      if (c === '/' && line[k + 1] === '/') break;
      if (c === '/' && line[k + 1] === '*') {
        block = true;
        k++;
        continue;
      }
      if (c === '"' || c === '`') {
        const end = line.indexOf(c, k + 1);
        if (end < 0 && c === '`') continue;
        k = end < 0 ? line.length : end;
        continue;
      }
      // `interface{}` and `struct{}` in a signature open no body.
      if (c === '{' && line[k + 1] === '}') {
        k++;
        continue;
      }
      if (c === '{') {
        depth++;
        opened = true;
      } else if (c === '}' && --depth === 0 && opened) return i + 1;
    }
  }
  return lines.length;
}

/** Go functions and methods (`func (r *T) Name(`), named `T.Name` for methods. */
export function goFunctions(text: string): FunctionSpan[] {
  const lines = text.split('\n');
  const spans: FunctionSpan[] = [];
  lines.forEach((line, i) => {
    const m = /^func\s+(?:\(\s*\w*\s*\*?(\w+)[^)]*\)\s*)?(\w+)/.exec(line);
    if (m) spans.push({ name: m[1] ? `${m[1]}.${m[2]}` : m[2]!, start: i + 1, end: closingLine(lines, i) });
  });
  return spans;
}

/** Rust functions (`fn name`), at any depth (inside `impl` and `mod` blocks), named `Type::name` inside an `impl`. */
export function rustFunctions(text: string): FunctionSpan[] {
  const lines = text.split('\n');
  const spans: FunctionSpan[] = [];
  const impls: FunctionSpan[] = [];
  const testMods: FunctionSpan[] = [];
  lines.forEach((line, i) => {
    // `#[cfg(test)] mod tests { ... }`: everything in it is test code, helpers included.
    if (/^\s*(pub\s+)?mod\s+\w+\s*\{/.test(line) && /^\s*#\[cfg\(test\)\]/.test(lines[i - 1] ?? ''))
      testMods.push({ name: 'tests', start: i + 1, end: closingLine(lines, i) });
    const impl = /^\s*impl(?:<[^>]*>)?\s+(?:[\w:<>, ]+\s+for\s+)?(\w+)/.exec(line);
    if (impl) impls.push({ name: impl[1]!, start: i + 1, end: closingLine(lines, i) });
    const m =
      /^\s*(?:pub(?:\([^)]*\))?\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?(?:extern\s+"[^"]*"\s+)?fn\s+(\w+)/.exec(
        line,
      );
    // A declaration without a body (in a trait) ends with `;`.
    if (!m || (/;\s*$/.test(line) && !line.includes('{'))) return;
    const end = closingLine(lines, i);
    const owner = impls.filter((b) => b.start <= i + 1 && i + 1 <= b.end).at(-1);
    // A test (`#[test]` above it) lives beside the code but is not code under test.
    const test =
      /^\s*#\[(tokio::)?test\]/.test(lines[i - 1] ?? '') ||
      /^\s*#\[(tokio::)?test\]/.test(lines[i - 2] ?? '') ||
      testMods.some((b) => b.start <= i + 1 && i + 1 <= b.end);
    spans.push({ name: owner ? `${owner.name}::${m[1]}` : m[1]!, start: i + 1, end, ...(test ? { test } : {}) });
  });
  return spans;
}
