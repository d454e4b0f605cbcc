import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { execa } from 'execa';
import { caseFor, casesOf } from './cases/index.js';
import { importsOf } from './l0/imports.js';

// Prints, as JSON, which of the asked names the loaded module lacks: `require` for a `require()` binding (its
// properties are what a destructuring reads), `import()` for an `import` statement (the namespace's names).
const PROBE = `
const [file, how, names] = [process.argv[1], process.argv[2], JSON.parse(process.argv[3])];
const has = (m) => names.filter((n) => m == null || !(n in Object(m)));
(how === 'require' ? Promise.resolve(require(file)) : import(require('node:url').pathToFileURL(file).href))
  .then((m) => process.stdout.write(JSON.stringify(has(m))), (e) => process.stdout.write(JSON.stringify({ error: String(e) })));
`;

const JS = /\.(c|m)?js$/;

/** The module file a relative specifier names, as node resolves it for a plain path (extension, index.js). */
function resolved(root: string, file: string, specifier: string): string | null {
  const base = resolve(root, dirname(file), specifier);
  for (const p of [base, `${base}.js`, `${base}.cjs`, `${base}.mjs`, join(base, 'index.js')])
    if (existsSync(p) && JS.test(p)) return p;
  return null;
}

/**
 * A name the failing test uses that it imports from a module of the project, and that the module, loaded by node,
 * does not provide: `const { walk } = require('../index')` where `module.exports` has no `walk` gives `undefined`,
 * and the test fails on an assertion about it, not on a `TypeError` naming it. Loading the module is the runtime's
 * answer where L0's static reading of the exports could not tell (`var traverse = module.exports = function`).
 * JavaScript test files only; null when every name is there, the module does not load, or nothing can be asked.
 */
export async function absentExport(
  root: string,
  file: string,
  testPath: readonly string[],
): Promise<{ name: string; from: string } | null> {
  if (!JS.test(file)) return null;
  let text: string;
  try {
    text = readFileSync(join(root, file), 'utf8');
  } catch {
    return null;
  }
  const span = caseFor(casesOf(file, text).cases, testPath);
  if (!span) return null;
  const used = (name: string): boolean => new RegExp(`(^|[^\\w$.])${name.replace(/\$/g, '\\$')}\\b`).test(span.text);
  for (const use of importsOf(text)) {
    if (!use.specifier.startsWith('.')) continue;
    const names = use.names.filter(used);
    const module = resolved(root, file, use.specifier);
    if (names.length === 0 || !module) continue;
    const how = new RegExp(`require\\(\\s*['"]${use.specifier.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}['"]`).test(
      text.split('\n')[use.line - 1] ?? '',
    )
      ? 'require'
      : 'import';
    const r = await execa(process.execPath, ['-e', PROBE, module, how, JSON.stringify(names)], {
      cwd: root,
      reject: false,
      timeout: 20_000,
    });
    let absent: unknown;
    try {
      absent = JSON.parse(String(r.stdout));
    } catch {
      continue;
    }
    if (Array.isArray(absent) && typeof absent[0] === 'string') return { name: absent[0], from: use.specifier };
  }
  return null;
}
