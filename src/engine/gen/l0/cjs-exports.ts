import { closingBracket } from '../cases/span.js';

/**
 * The names a CommonJS module exports, read statically: `exports.x =`, `module.exports.x =`, the keys of
 * `module.exports = { ... }`, and the properties set on `module.exports = fn` (`fn.parse = ...`). Null when it
 * cannot be told: re-exports, computed or spread exports, `Object.assign`/`defineProperty`, a class, nothing found.
 */
export function cjsExports(text: string): Set<string> | null {
  if (/module\.exports\s*=\s*(require\(|new\s|\w+\()|Object\.(assign|defineProperty|defineProperties)\(\s*(module\.)?exports|\bexports\[|module\.exports\[|__exportStar/.test(text)) return null;
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
      if (p.startsWith('...') || p.startsWith('[')) return null;
      const key = /^(?:async\s+|get\s+|set\s+)?['"]?([\w$]+)['"]?\s*(?::|\(|$)/.exec(p);
      if (key) names.add(key[1]!);
    }
  }
  const single = /module\.exports\s*=\s*([\w$]+)\s*;?\s*$/m.exec(text);
  if (single) {
    if (new RegExp(`\\bclass\\s+${single[1]}\\b`).test(text)) return null;
    for (const m of text.matchAll(new RegExp(`\\b${single[1]!.replace(/\$/g, '\\$')}\\.([\\w$]+)\\s*=[^=]`, 'g'))) names.add(m[1]!);
  }
  return names.size > 0 ? names : null;
}
