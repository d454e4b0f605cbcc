import { closingBracket } from '../cases/span.js';

/**
 * The names a CommonJS module exports, read statically: `exports.x =`, `module.exports.x =`, the keys of
 * `module.exports = { ... }` (a spread of another module's exports, `...errors` with `errors = require('./errors')`
 * or `...require('./errors')`, read through `required`), and the properties set on `module.exports = fn`
 * (`fn.parse = ...`). Null when it cannot be told: re-exports, computed exports, a spread of anything else or of a
 * module whose exports cannot be read, `Object.assign`/`defineProperty`, a class, nothing found.
 */
export function cjsExports(
  text: string,
  required: (specifier: string) => Set<string> | null = () => null,
): Set<string> | null {
  if (
    /module\.exports\s*=\s*(require\(|new\s|\w+\()|Object\.(assign|defineProperty|defineProperties)\(\s*(module\.)?exports|\bexports\[|module\.exports\[|__exportStar/.test(
      text,
    )
  )
    return null;
  const names = new Set<string>();
  for (const m of text.matchAll(/\b(?:module\.)?exports\.([\w$]+)\s*=[^=]/g)) names.add(m[1]!);
  const literal = /module\.exports\s*=\s*\{/.exec(text);
  if (literal) {
    const open = literal.index + literal[0].length - 1;
    const end = closingBracket(text, open);
    if (end < 0) return null;
    let depth = 0;
    let part = '';
    const parts: string[] = [];
    for (const ch of text.slice(open + 1, end - 1)) {
      if ('([{'.includes(ch)) depth++;
      if (')]}'.includes(ch)) depth--;
      if (ch === ',' && depth === 0) {
        parts.push(part);
        part = '';
      } else part += ch;
    }
    parts.push(part);
    for (const p of parts.map((x) => x.replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, '').trim()).filter(Boolean)) {
      if (p.startsWith('...')) {
        const spread = spreadExports(text, p.slice(3).trim(), required);
        if (!spread) return null;
        for (const name of spread) names.add(name);
        continue;
      }
      if (p.startsWith('[')) return null;
      const key = /^(?:async\s+|get\s+|set\s+)?['"]?([\w$]+)['"]?\s*(?::|\(|$)/.exec(p);
      if (key) names.add(key[1]!);
    }
  }
  const single = /module\.exports\s*=\s*([\w$]+)\s*;?\s*$/m.exec(text);
  if (single) {
    if (new RegExp(`\\bclass\\s+${single[1]}\\b`).test(text)) return null;
    for (const m of text.matchAll(new RegExp(`\\b${single[1]!.replace(/\$/g, '\\$')}\\.([\\w$]+)\\s*=[^=]`, 'g')))
      names.add(m[1]!);
  }
  return names.size > 0 ? names : null;
}

/** The exports a spread in `module.exports = { ...x }` adds: `x` bound to a `require()` of a module, or the call itself. */
function spreadExports(
  text: string,
  spread: string,
  required: (specifier: string) => Set<string> | null,
): Set<string> | null {
  const call = /^require\(\s*['"]([^'"]+)['"]\s*\)$/.exec(spread);
  if (call) return required(call[1]!);
  if (!/^[\w$]+$/.test(spread)) return null;
  const bound = new RegExp(
    `(?:const|let|var)\\s+${spread.replace(/\$/g, '\\$')}\\s*=\\s*require\\(\\s*['"]([^'"]+)['"]\\s*\\)`,
  ).exec(text);
  return bound ? required(bound[1]!) : null;
}
