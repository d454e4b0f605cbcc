import { init, parse } from 'es-module-lexer';
import { isTypeOnlyStatement, scanReferences } from './js-token-references.js';
import type { ModuleReference } from './module-reference.js';

/** Loads es-module-lexer's WebAssembly; call once before `findModuleReferences`. */
export function initModuleLexer(): Promise<void> {
  return init();
}

/**
 * The modules `source` loads at run time, type-only ones left out (they would inflate a selection
 * about 4x). es-module-lexer reads import/export syntax; `require()` comes from a token-aware scan
 * (see js-tokens.ts), which also stands in for everything when the lexer rejects the file.
 */
export function findModuleReferences(source: string): ModuleReference[] {
  let found: ModuleReference[];
  try {
    found = lexImports(source);
    if (source.includes('require')) found.push(...scanReferences(source, false));
  } catch {
    found = scanReferences(source, true);
  }
  const seen = new Set<string>();
  return found.filter((ref) => {
    if (ref.typeOnly || seen.has(ref.specifier)) return false;
    seen.add(ref.specifier);
    return true;
  });
}

function lexImports(source: string): ModuleReference[] {
  const [imports] = parse(source);
  const found: ModuleReference[] = [];
  for (const record of imports) {
    if (record.type === 'import-meta') continue;
    if (record.type === 'dynamic') {
      if (record.specifier === undefined || record.probablyTypeOnly) continue;
      found.push({ specifier: record.specifier, glob: record.glob, typeOnly: false });
      continue;
    }
    const statement = source.slice(record.importStart, record.importEnd);
    // es-module-lexer marks `import type`; `import { type A, type B }` is erased too, so check its clause.
    const typeOnly = record.typeOnly || (statement.includes('type') && isTypeOnlyStatement(statement));
    found.push({ specifier: record.specifier, glob: false, typeOnly });
  }
  return found;
}
