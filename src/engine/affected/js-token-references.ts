import { tokenize, type Token } from './js-tokens.js';
import type { ModuleReference } from './module-reference.js';

/**
 * Finds module references in a token stream: `require('x')` always, and with `everything` also
 * `import`/`export ... from 'x'`, `import 'x'` and `import('x')` (the fallback for files
 * es-module-lexer cannot lex, such as JSX with apostrophes in its text).
 */
export function scanReferences(source: string, everything: boolean): ModuleReference[] {
  const tokens = tokenize(source);
  const found: ModuleReference[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.kind !== 'id') continue;
    const prev = tokens[i - 1];
    if (prev?.kind === 'punct' && prev.value === '.') continue;
    if (token.value === 'require') {
      const arg = callArgument(tokens, i);
      if (arg) found.push({ specifier: arg.value, glob: arg.glob === true, typeOnly: isImportTypeEquals(tokens, i) });
    } else if (everything && token.value === 'import') {
      const arg = callArgument(tokens, i);
      if (arg) {
        const typeOnly = prev?.kind === 'id' && prev.value === 'typeof';
        found.push({ specifier: arg.value, glob: arg.glob === true, typeOnly });
      } else {
        const ref = fromClause(tokens, i);
        if (ref) found.push(ref);
      }
    } else if (everything && token.value === 'export') {
      const ref = fromClause(tokens, i);
      if (ref) found.push(ref);
    }
  }
  return found;
}

/** `import type X = require('x')` (TypeScript erases it), with `require` at `i`. */
function isImportTypeEquals(tokens: Token[], i: number): boolean {
  return tokens[i - 1]?.value === '=' && tokens[i - 3]?.value === 'type' && tokens[i - 4]?.value === 'import';
}

/** `name ( 'x' )` or `name ( 'x' , ...)`: the string argument, if that is the shape at `i`. */
function callArgument(tokens: Token[], i: number): Token | null {
  const open = tokens[i + 1];
  const arg = tokens[i + 2];
  if (open?.kind !== 'punct' || open.value !== '(' || arg?.kind !== 'str') return null;
  const close = tokens[arg.next ?? i + 3];
  if (close?.kind !== 'punct' || (close.value !== ')' && close.value !== ',')) return null;
  return arg;
}

// A statement this long between `import`/`export` and its `from` is not an import clause.
const MAX_CLAUSE_TOKENS = 2000;

/** `import|export <clause> from 'x'` or `import 'x'` starting at `i`. */
function fromClause(tokens: Token[], i: number): ModuleReference | null {
  const first = tokens[i + 1];
  if (!first) return null;
  if (first.kind === 'str' && tokens[i]!.value === 'import') {
    return { specifier: first.value, glob: false, typeOnly: false };
  }
  const isExport = tokens[i]!.value === 'export';
  if (isExport && !(first.value === '{' || first.value === '*' || first.value === 'type')) return null;
  const limit = Math.min(tokens.length, i + MAX_CLAUSE_TOKENS);
  for (let j = i + 1; j < limit; j++) {
    const t = tokens[j]!;
    if (t.kind === 'punct' && t.value === ';') return null;
    if (t.kind === 'str') return null;
    if (t.kind === 'id' && t.value === 'from' && tokens[j + 1]?.kind === 'str') {
      return { specifier: tokens[j + 1]!.value, glob: false, typeOnly: isTypeOnlyClause(tokens.slice(i + 1, j)) };
    }
  }
  return null;
}

/**
 * True for `type X`, `type { A }`, `type * as N` and `{ type A, type B }`: clauses TypeScript erases.
 * `type` followed by `from` or `,` is a default import of a binding named `type`, a runtime import.
 */
export function isTypeOnlyClause(clause: Token[]): boolean {
  const first = clause[0];
  const second = clause[1];
  if (!first) return false;
  if (first.kind === 'id' && first.value === 'type') {
    return second !== undefined && !(second.kind === 'id' && second.value === 'from') && second.value !== ',';
  }
  if (first.kind !== 'punct' || first.value !== '{') return false;
  const close = clause.findIndex((t) => t.kind === 'punct' && t.value === '}');
  if (close !== clause.length - 1) return false;
  let items = 0;
  let atItemStart = true;
  for (let k = 1; k < close; k++) {
    const t = clause[k]!;
    if (t.kind === 'punct' && t.value === ',') {
      atItemStart = true;
      continue;
    }
    if (!atItemStart) continue;
    atItemStart = false;
    items++;
    const after = clause[k + 1];
    const isTypeModifier = t.kind === 'id' && t.value === 'type' && after?.kind === 'id' && after.value !== 'as';
    if (!isTypeModifier) return false;
  }
  return items > 0;
}

/** The type-only check for one import/export statement's text (`import { type A } from './a'`). */
export function isTypeOnlyStatement(statement: string): boolean {
  const tokens = tokenize(statement);
  const fromAt = tokens.findIndex((t) => t.kind === 'id' && t.value === 'from');
  if (fromAt < 0) return false;
  return isTypeOnlyClause(tokens.slice(1, fromAt));
}
