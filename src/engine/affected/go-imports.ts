/**
 * The import paths of a Go file: `import "fmt"`, `import f "fmt"` and `import ( ... )` blocks,
 * read with a tokenizer that skips comments and rune literals. Go allows imports only before the
 * first declaration, so reading stops there.
 */
export function findGoImports(source: string): string[] {
  const found: string[] = [];
  const n = source.length;
  let i = 0;
  let inImport = false;
  let inBlock = false;
  while (i < n) {
    const c = source[i]!;
    if (c === '/' && source[i + 1] === '/') {
      const end = source.indexOf('\n', i);
      i = end < 0 ? n : end;
      continue;
    }
    if (c === '/' && source[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
      continue;
    }
    if (c === '"' || c === '`') {
      const { value, end } = readGoString(source, i);
      if (inImport) {
        found.push(value);
        if (!inBlock) inImport = false;
      }
      i = end;
      continue;
    }
    if (c === "'") {
      const end = source.indexOf("'", i + 2);
      i = end < 0 ? n : end + 1;
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      const start = i;
      while (i < n && /\w/.test(source[i]!)) i++;
      const word = source.slice(start, i);
      if (word === 'import') inImport = true;
      else if (!inImport && (word === 'func' || word === 'var' || word === 'const' || word === 'type')) break;
      continue;
    }
    if (inImport && c === '(') inBlock = true;
    else if (inBlock && c === ')') {
      inBlock = false;
      inImport = false;
    }
    i++;
  }
  return found;
}

function readGoString(source: string, start: number): { value: string; end: number } {
  const quote = source[start]!;
  let value = '';
  let i = start + 1;
  while (i < source.length) {
    const c = source[i]!;
    if (c === quote) return { value, end: i + 1 };
    if (quote === '"' && c === '\\') {
      value += source[i + 1] ?? '';
      i += 2;
      continue;
    }
    if (quote === '"' && c === '\n') return { value, end: i };
    value += c;
    i++;
  }
  return { value, end: i };
}

/** The module path from go.mod's `module` line (`module example.com/app` or quoted), or null. */
export function readModulePath(goMod: string): string | null {
  for (const raw of goMod.split('\n')) {
    const line = raw.replace(/\/\/.*$/, '').trim();
    const match = /^module\s+"?([^"\s]+)"?$/.exec(line);
    if (match) return match[1]!;
  }
  return null;
}
