/** One Python import statement: `import a.b` -> `{ module: 'a.b', level: 0, names: [] }`. */
export interface PythonImport {
  /** The dotted module after `import` or `from` (without leading dots; may be empty for `from . import x`). */
  module: string;
  /** Leading dots of a relative import: `from ..pkg import x` -> 2. */
  level: number;
  /** What `from X import ...` names (each may be a submodule); empty for `import X`. */
  names: string[];
}

// A string prefix: r, b, u, f, t and their two-letter mixes (rb, Rb, fr, ...).
const STRING_PREFIX = /^[rbuftRBUFT]{1,2}$/;

/**
 * Splits Python source into logical lines of name and punctuation tokens, skipping comments and
 * strings (triple-quoted ones across lines too); brackets and a trailing backslash join lines.
 */
export function pythonLogicalLines(source: string): string[][] {
  const lines: string[][] = [];
  let line: string[] = [];
  let depth = 0;
  let i = 0;
  const n = source.length;
  const endLine = (): void => {
    if (line.length > 0) lines.push(line);
    line = [];
  };
  while (i < n) {
    const c = source[i]!;
    if (c === '#') {
      const end = source.indexOf('\n', i);
      i = end < 0 ? n : end;
      continue;
    }
    if (c === '\\' && source[i + 1] === '\n') {
      i += 2;
      continue;
    }
    if (c === '\n') {
      if (depth === 0) endLine();
      i++;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\f') {
      i++;
      continue;
    }
    if (c === "'" || c === '"') {
      i = skipString(source, i);
      line.push('<str>');
      continue;
    }
    if (/[A-Za-z_\u0080-\uffff]/.test(c)) {
      const start = i;
      while (i < n && /[\w\u0080-\uffff]/.test(source[i]!)) i++;
      const word = source.slice(start, i);
      if ((source[i] === "'" || source[i] === '"') && STRING_PREFIX.test(word)) {
        i = skipString(source, i);
        line.push('<str>');
      } else {
        line.push(word);
      }
      continue;
    }
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth = Math.max(0, depth - 1);
    if (c === ';' && depth === 0) {
      endLine();
      i++;
      continue;
    }
    line.push(c);
    i++;
  }
  endLine();
  return lines;
}

/** Skips the string literal whose opening quote is at `start`; returns the index after it. */
function skipString(source: string, start: number): number {
  const quote = source[start]!;
  const triple = source.startsWith(quote.repeat(3), start);
  let i = start + (triple ? 3 : 1);
  while (i < source.length) {
    const c = source[i]!;
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (triple) {
      if (source.startsWith(quote.repeat(3), i)) return i + 3;
    } else if (c === quote) {
      return i + 1;
    } else if (c === '\n') {
      return i;
    }
    i++;
  }
  return i;
}

/** The import statements of a Python file, wherever they are (inside functions and `try` too). */
export function findPythonImports(source: string): PythonImport[] {
  const found: PythonImport[] = [];
  for (const tokens of pythonLogicalLines(source)) {
    // `if x: import y` and `try: import y` put the statement after a colon.
    const colon = tokens.lastIndexOf(':');
    const start = tokens[0] === 'import' || tokens[0] === 'from' ? 0 : colon >= 0 ? colon + 1 : -1;
    if (start < 0) continue;
    const statement = tokens.slice(start);
    if (statement[0] === 'import') found.push(...parseImport(statement.slice(1)));
    else if (statement[0] === 'from') {
      const parsed = parseFrom(statement.slice(1));
      if (parsed) found.push(parsed);
    }
  }
  return found;
}

/** `a.b as c, d` -> modules a.b and d. */
function parseImport(tokens: string[]): PythonImport[] {
  const found: PythonImport[] = [];
  for (const part of splitOn(tokens, ',')) {
    const module = dotted(part);
    if (module) found.push({ module, level: 0, names: [] });
  }
  return found;
}

/** `..pkg.mod import (a, b as c)` -> module pkg.mod, level 2, names a and b. */
function parseFrom(tokens: string[]): PythonImport | null {
  const at = tokens.indexOf('import');
  if (at < 0) return null;
  const source = tokens.slice(0, at);
  let level = 0;
  while (source[level] === '.') level++;
  const module = source.slice(level).join('');
  if (!/^[\w.\u0080-\uffff]*$/.test(module) || (module === '' && level === 0)) return null;
  const names = splitOn(
    tokens.slice(at + 1).filter((t) => t !== '(' && t !== ')'),
    ',',
  )
    .map((part) => part[0])
    .filter((name): name is string => name !== undefined && name !== '*');
  return { module, level, names };
}

function splitOn(tokens: string[], separator: string): string[][] {
  const parts: string[][] = [[]];
  for (const token of tokens) {
    if (token === separator) parts.push([]);
    else parts[parts.length - 1]!.push(token);
  }
  return parts.filter((part) => part.length > 0);
}

/** The dotted name at the start of `tokens` (`a . b . c as x` -> `a.b.c`). */
function dotted(tokens: string[]): string {
  let name = '';
  for (const token of tokens) {
    if (token === 'as') break;
    name += token;
  }
  return /^[\w\u0080-\uffff]+(\.[\w\u0080-\uffff]+)*$/.test(name) ? name : '';
}
