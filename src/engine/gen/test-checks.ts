import { ASSERTION } from '../guard/patterns.js';
import type { CaseLanguage, CaseSpan } from './cases/index.js';
import { MORE_ASSERTIONS } from './l0/assertions.js';

/**
 * The text with its comments blanked out (newlines kept, so lines stay where they were) and each string's
 * contents as they are: a `//` or `#` inside a string is no comment.
 */
export function withoutComments(language: CaseLanguage, text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    const triple =
      language === 'python' && (text.startsWith('"""', i) || text.startsWith("'''", i)) ? text.slice(i, i + 3) : null;
    if (triple || ch === '"' || ch === "'" || ch === '`') {
      const quote = triple ?? ch;
      let end = i + quote.length;
      while (end < text.length && !text.startsWith(quote, end)) {
        // A one-quote string ends at its line's end in every language here (JS's and Go's backtick strings do not).
        if (!triple && quote !== '`' && text[end] === '\n') break;
        end += text[end] === '\\' ? 2 : 1;
      }
      end = Math.min(text.length, end + (text.startsWith(quote, end) ? quote.length : 0));
      out += text.slice(i, end);
      i = end - 1;
    } else if ((language !== 'python' && text.startsWith('//', i)) || (language === 'python' && ch === '#')) {
      const end = text.indexOf('\n', i);
      i = (end < 0 ? text.length : end) - 1;
    } else if (language !== 'python' && text.startsWith('/*', i)) {
      const end = text.indexOf('*/', i + 2);
      const comment = text.slice(i, end < 0 ? text.length : end + 2);
      out += comment.replace(/[^\n]/g, ' ');
      i += comment.length - 1;
    } else out += ch;
  }
  return out;
}

/** Code as a test means it: whitespace only where it separates two words, no `;`, no trailing comma; strings as written. */
function normalized(text: string): string {
  return text
    .split(/((?:"""|''')[\s\S]*?(?:"""|''')|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`)/)
    .map((part, i) =>
      i % 2 === 1
        ? part
        : part
            .replace(/;/g, ' ')
            .replace(/\s+/g, ' ')
            .replace(/ (?=\W)|(?<=\W) /g, '')
            .replace(/,(?=[)\]}])/g, ''),
    )
    .join('')
    .trim();
}

/** How far a line opens brackets (closing ones count down), strings aside. */
function depthOf(line: string): number {
  let depth = 0;
  for (const ch of line.replace(/"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|`(?:\\.|[^`\\])*`/g, '""'))
    depth += '([{'.includes(ch) ? 1 : ')]}'.includes(ch) ? -1 : 0;
  return depth;
}

const indentOf = (line: string): number => line.length - line.trimStart().length;

/**
 * What a test checks: each of its assertions as the whole statement (all its lines; in Python the block a
 * `with pytest.raises(...):` holds) together with the rest of its body, the inputs and setup that feed it,
 * normalized for whitespace and comments, with the test's own name taken out. Two tests check the same when these
 * are the same: a copy under another title does, the same assertion over other data does not.
 * `variant`: what tells apart cases sharing one text (a pytest parametrize id, a go subtest named at run time).
 */
export function testChecks(language: CaseLanguage, span: Pick<CaseSpan, 'text' | 'name'>, variant = ''): string[] {
  const names = [span.name, ...(language === 'go' ? [span.name.replace(/_/g, ' ')] : [])];
  const own = names.find((n) => n && span.text.includes(n));
  const text = withoutComments(language, own ? span.text.replace(own, '\u0000') : span.text);
  const lines = text.split('\n');
  const statements: string[] = [];
  const setup: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!(ASSERTION.test(line) || MORE_ASSERTIONS[language].test(line))) {
      setup.push(line);
      continue;
    }
    let end = i;
    for (let depth = depthOf(line); depth > 0 && end + 1 < lines.length;) depth += depthOf(lines[++end]!);
    // Python: `with pytest.raises(E):` / `with self.assertRaises(E):` checks the block it opens.
    if (language === 'python' && /:\s*$/.test(lines[end]!)) {
      while (end + 1 < lines.length && (lines[end + 1]!.trim() === '' || indentOf(lines[end + 1]!) > indentOf(line)))
        end++;
    }
    statements.push(lines.slice(i, end + 1).join('\n'));
    i = end;
  }
  const fed = normalized(setup.join('\n'));
  const tail = variant ? ` [${variant}]` : '';
  // Asserting through a helper (a function of the file that asserts): its whole body is what it checks.
  if (statements.length === 0) return [`<= ${fed}${tail}`];
  return [...new Set(statements.map((s) => `${normalized(s)} <= ${fed}${tail}`))];
}
