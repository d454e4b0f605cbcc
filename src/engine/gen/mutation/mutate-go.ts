import { ordered } from './operators.js';
import type { MutationOperator, MutationSite } from './types.js';

// Text operators over Go's tokens (strings, runes and comments skipped): Go's types make most other changes fail
// to compile, and a mutant that does not build is counted as no mutant at all when it runs (the runner says so),
// so the operators are those that keep the types: comparisons, && and ||, + and -, integer constants, true/false.
const TOKEN =
  /\/\/[^\n]*|\/\*[\s\S]*?\*\/|"(?:[^"\\\n]|\\.)*"|`[^`]*`|'(?:[^'\\\n]|\\.)*'|<<=?|>>=?|<-|&&|\|\||[<>=!]=|[<>]|\+\+|--|\+=|-=|[+-]|\b(?:true|false)\b|\b\d+\b/g;

const REPLACE: Record<string, [string, MutationOperator]> = {
  '<': ['>=', 'comparison'],
  '<=': ['>', 'comparison'],
  '>': ['<=', 'comparison'],
  '>=': ['<', 'comparison'],
  '==': ['!=', 'comparison'],
  '!=': ['==', 'comparison'],
  '&&': ['||', 'logical'],
  '||': ['&&', 'logical'],
  '+': ['-', 'arithmetic'],
  '-': ['+', 'arithmetic'],
  true: ['false', 'constant'],
  false: ['true', 'constant'],
};

/** The mutation sites on the changed lines of a Go file. */
export function goSites(text: string, changed: ReadonlySet<number>): MutationSite[] {
  const sites: (MutationSite & { order: number })[] = [];
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') lineStarts.push(i + 1);
  const lineOf = (pos: number): number => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  // Generic type brackets (`[T any]`, `Map[K, V]`) hold no `<`/`>`: Go's generics use square brackets.
  const importBlock = /^import\s*\([\s\S]*?\)|^import\s+"[^"]*"/m.exec(text);
  for (const m of text.matchAll(TOKEN)) {
    const token = m[0];
    const at = m.index;
    const line = lineOf(at);
    if (!changed.has(line)) continue;
    if (importBlock && at >= importBlock.index && at < importBlock.index + importBlock[0].length) continue;
    const replace = REPLACE[token];
    let next: [string, MutationOperator] | null = replace ?? null;
    if (/^\d+$/.test(token)) next = [token === '0' ? '1' : token === '1' ? '0' : String(Number(token) + 1), 'constant'];
    // A unary minus (`-1`, `x = -y`) is no subtraction to swap.
    if ((token === '-' || token === '+') && /[=(,:[{]\s*$|return\s*$|^\s*$/.test(text.slice(lineStarts[line - 1]!, at)))
      next = null;
    if (!next) continue;
    const [replacement, operator] = next;
    sites.push({
      line,
      operator,
      order: at,
      description: `${token} -> ${replacement}`,
      text: text.slice(0, at) + replacement + text.slice(at + token.length),
    });
  }
  return ordered(sites);
}
