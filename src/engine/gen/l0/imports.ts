import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { init, parse } from 'es-module-lexer';
import { createResolver, type ResolveSpecifier } from '../../affected/js-resolve.js';
import { cjsExports } from './cjs-exports.js';
import type { Finding } from './finding.js';

interface ImportUse {
  specifier: string;
  names: string[];
  line: number;
}

/** The names of `import { a, b as c } from` / `export { a } from`, without type-only ones. */
function namedImports(statement: string): string[] {
  const clause = /^\s*import\s+(?!type\b)(?:[\w$]+\s*,\s*)?\{([^}]*)\}\s*from/.exec(statement);
  if (!clause) return [];
  return clause[1]!
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part && !part.startsWith('type '))
    .map((part) =>
      part
        .split(/\s+as\s+/)[0]!
        .trim()
        .replace(/^['"]|['"]$/g, ''),
    )
    .filter((name) => name !== 'default');
}

function lineAt(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}

/** Static imports and `require()` calls of a JS/TS file, with the names each one takes. */
export function importsOf(text: string): ImportUse[] {
  const uses: ImportUse[] = [];
  try {
    const [imports] = parse(text);
    for (const imp of imports) {
      if (imp.type !== 'static' || imp.typeOnly) continue; // dynamic imports, import.meta, export *
      const statement = text.slice(imp.importStart, imp.importEnd);
      uses.push({ specifier: imp.specifier, names: namedImports(statement), line: lineAt(text, imp.importStart) });
    }
  } catch {
    for (const m of text.matchAll(/^\s*import\s+(?!type\b)[^'"]*?from\s+['"]([^'"]+)['"]/gm))
      uses.push({ specifier: m[1]!, names: namedImports(m[0]), line: lineAt(text, m.index) });
  }
  for (const m of text.matchAll(/(?:const|let|var)\s+(\{[^}]*\}|[\w$]+)\s*=\s*require\(\s*['"]([^'"]+)['"]\s*\)/g)) {
    const names = m[1]!.startsWith('{')
      ? m[1]!
          .slice(1, -1)
          .split(',')
          .map((p) => p.split(':')[0]!.trim())
          .filter(Boolean)
      : [];
    uses.push({ specifier: m[2]!, names, line: lineAt(text, m.index) });
  }
  return uses;
}

/**
 * What a project module exports, or null when that cannot be told statically (`export *`, CommonJS built at run
 * time). `required`: the exports of a module this one requires (a CommonJS spread of them).
 */
function exportsOf(text: string, required: (specifier: string) => Set<string> | null): Set<string> | null {
  try {
    const [imports, exports] = parse(text);
    if (imports.some((imp) => imp.type === 'reexport-star')) return null;
    if (exports.length === 0 && /\bmodule\.exports\b|\bexports\.\w+\s*=/.test(text)) return cjsExports(text, required);
    return new Set(exports.flatMap((e) => ('name' in e && !('typeOnly' in e && e.typeOnly) ? [e.name] : [])));
  } catch {
    // es-module-lexer cannot read it: CommonJS it may still be.
    return /\bmodule\.exports\b|\bexports\.\w+\s*=/.test(text) ? cjsExports(text, required) : null;
  }
}

export interface ImportChecker {
  check(file: string, text: string): Finding[];
}

/** Checks that imports resolve and that named imports exist in the module (hallucinated APIs). */
export async function importChecker(root: string): Promise<ImportChecker> {
  await init;
  const resolve: ResolveSpecifier = createResolver(root);
  const exportCache = new Map<string, Set<string> | null>();
  const exported = (target: string): Set<string> | null => {
    if (!exportCache.has(target)) {
      let text = '';
      try {
        text = readFileSync(join(root, target), 'utf8');
      } catch {
        exportCache.set(target, null);
        return null;
      }
      // Unknown while it is read: a module requiring itself back through a spread cannot be told.
      exportCache.set(target, null);
      const required = (specifier: string): Set<string> | null => {
        const module = resolve(target, specifier);
        return module ? exported(module) : null;
      };
      exportCache.set(target, /\.(m|c)?[jt]sx?$/.test(target) ? exportsOf(text, required) : null);
    }
    return exportCache.get(target)!;
  };
  return {
    check(file, text) {
      const findings: Finding[] = [];
      for (const use of importsOf(text)) {
        const target = resolve(file, use.specifier);
        if (target === null) {
          const what =
            use.specifier.startsWith('.') || use.specifier.startsWith('/')
              ? 'a file that does not exist'
              : 'a package that is not installed';
          findings.push({
            file,
            line: use.line,
            severity: 'critical',
            check: 'import',
            message: `imports "${use.specifier}", ${what}`,
          });
          continue;
        }
        if (target === '' || use.names.length === 0) continue;
        const names = exported(target);
        if (!names) continue;
        for (const name of use.names) {
          if (!names.has(name))
            findings.push({
              file,
              line: use.line,
              severity: 'critical',
              check: 'export',
              message: `imports { ${name} } from "${use.specifier}", which ${target} does not export (it exports ${[...names].join(', ') || 'nothing'})`,
            });
        }
      }
      return findings;
    },
  };
}
