// A small JavaScript/TypeScript tokenizer: just enough to find module references in code
// while skipping strings, comments, template text and regular expressions.
//
// Recovery matters more than precision here: a quote or regex literal may never span a line in
// valid JS, so an unterminated one (JSX text like `<p>Don't</p>`, a division read as a regex)
// ends at the line break and the damage stays on that line.

/** One significant token. `str` holds a decoded string or template value (`*` per substitution). */
export interface Token {
  kind: 'id' | 'str' | 'punct' | 'other';
  value: string;
  /** For a template with substitutions: true, and `next` is the index of the token after it. */
  glob?: boolean;
  next?: number;
}

const KEYWORDS_BEFORE_EXPRESSION = new Set([
  'return',
  'typeof',
  'instanceof',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'case',
  'do',
  'else',
  'yield',
  'await',
]);

function isIdStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36 || c === 35 || c >= 128;
}

function isIdPart(c: number): boolean {
  return isIdStart(c) || (c >= 48 && c <= 57);
}

/** Splits `source` into significant tokens (see the file comment for how it recovers). */
export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  const n = source.length;
  // One frame per open template substitution: the template token and the brace depth to resume at.
  const templates: { token: number; depth: number }[] = [];
  let depth = 0;
  let i = 0;

  /** Reads template text from `i` (just past a backtick or `}`); returns the text and whether `${` follows. */
  const readTemplateText = (): { text: string; open: boolean } => {
    let text = '';
    while (i < n) {
      const c = source.charCodeAt(i);
      if (c === 96) {
        i++;
        return { text, open: false };
      }
      if (c === 92) {
        text += source[i + 1] ?? '';
        i += 2;
        continue;
      }
      if (c === 36 && source.charCodeAt(i + 1) === 123) {
        i += 2;
        return { text, open: true };
      }
      text += source[i];
      i++;
    }
    return { text, open: false };
  };

  const regexAllowed = (): boolean => {
    const last = tokens[tokens.length - 1];
    if (!last) return true;
    if (last.kind === 'punct') return last.value !== ')' && last.value !== ']';
    if (last.kind === 'id') return KEYWORDS_BEFORE_EXPRESSION.has(last.value);
    return false;
  };

  while (i < n) {
    const c = source.charCodeAt(i);
    if (c <= 32) {
      i++;
      continue;
    }
    if (c === 47) {
      const d = source.charCodeAt(i + 1);
      if (d === 47) {
        const end = source.indexOf('\n', i);
        i = end < 0 ? n : end;
        continue;
      }
      if (d === 42) {
        const end = source.indexOf('*/', i + 2);
        i = end < 0 ? n : end + 2;
        continue;
      }
      if (regexAllowed()) {
        i = skipRegex(source, i + 1);
        tokens.push({ kind: 'other', value: '/re/' });
        continue;
      }
      tokens.push({ kind: 'punct', value: '/' });
      i++;
      continue;
    }
    if (c === 39 || c === 34) {
      const { value, end } = readQuoted(source, i);
      tokens.push({ kind: 'str', value });
      i = end;
      continue;
    }
    if (c === 96) {
      i++;
      const part = readTemplateText();
      if (part.open) {
        templates.push({ token: tokens.length, depth });
        tokens.push({ kind: 'str', value: part.text + '*', glob: true });
      } else {
        tokens.push({ kind: 'str', value: part.text });
      }
      continue;
    }
    if (c === 125 && templates.length > 0 && templates[templates.length - 1]!.depth === depth) {
      const frame = templates[templates.length - 1]!;
      const token = tokens[frame.token]!;
      i++;
      const part = readTemplateText();
      token.value += part.text + (part.open ? '*' : '');
      if (!part.open) {
        templates.pop();
        token.next = tokens.length;
      }
      continue;
    }
    if (isIdStart(c)) {
      const start = i;
      while (i < n && isIdPart(source.charCodeAt(i))) i++;
      tokens.push({ kind: 'id', value: source.slice(start, i) });
      continue;
    }
    if (c >= 48 && c <= 57) {
      while (i < n && (isIdPart(source.charCodeAt(i)) || source.charCodeAt(i) === 46)) i++;
      tokens.push({ kind: 'other', value: '0' });
      continue;
    }
    if (c === 123) depth++;
    else if (c === 125) depth--;
    tokens.push({ kind: 'punct', value: source[i]! });
    i++;
  }
  return tokens;
}

function readQuoted(source: string, start: number): { value: string; end: number } {
  const quote = source.charCodeAt(start);
  let value = '';
  let i = start + 1;
  while (i < source.length) {
    const c = source.charCodeAt(i);
    if (c === quote) return { value, end: i + 1 };
    if (c === 10) return { value, end: i };
    if (c === 92) {
      value += source[i + 1] ?? '';
      i += 2;
      continue;
    }
    value += source[i];
    i++;
  }
  return { value, end: i };
}

function skipRegex(source: string, start: number): number {
  let i = start;
  let inClass = false;
  while (i < source.length) {
    const c = source.charCodeAt(i);
    if (c === 10) return i;
    if (c === 92) {
      i += 2;
      continue;
    }
    if (c === 91) inClass = true;
    else if (c === 93) inClass = false;
    else if (c === 47 && !inClass) {
      i++;
      while (i < source.length && isIdPart(source.charCodeAt(i))) i++;
      return i;
    }
    i++;
  }
  return i;
}
