/**
 * The lines of a question or banner that asks for a key, fitted to a width: every choice's key stays visible,
 * its words shorten first (then go), and a long question wraps at word boundaries onto a second line before it
 * ends with `…`. A pure function, so the banner height and the banner always agree.
 */

/** One answer a key gives. */
export interface Choice {
  /** The key as the user types it: `y`, `esc`, `a`. */
  key: string;
  /** What it does, in full: `stops it and leaves`. */
  does: string;
  /** The same in a word or two, for narrow terminals: `stop`. Default: the full words. */
  short?: string;
}

/** A question with the keys that answer it. */
export interface Question {
  text: string;
  choices: readonly Choice[];
}

/** One piece of a fitted line: a key (drawn bold) or words. */
export interface Piece {
  text: string;
  key?: boolean;
}

/** A fitted question: its question lines (one or two) and the keys line (or none when they fit after the question). */
export interface FittedQuestion {
  question: string[];
  keys: Piece[];
  /** True when the keys follow the question on its only line. */
  inline: boolean;
}

const SEPARATOR = ' · ';

function choicePieces(choices: readonly Choice[], words: (c: Choice) => string): Piece[] {
  const pieces: Piece[] = [];
  choices.forEach((c, i) => {
    if (i > 0) pieces.push({ text: SEPARATOR });
    pieces.push({ text: c.key, key: true });
    const w = words(c);
    if (w) pieces.push({ text: ` ${w}` });
  });
  return pieces;
}

export const piecesWidth = (pieces: readonly Piece[]): number => pieces.reduce((n, p) => n + [...p.text].length, 0);

/**
 * The keys with as many words as fit in `width`: full words, then short words from the last choice back to the
 * first, then keys alone (which never shorten).
 */
export function fitChoices(choices: readonly Choice[], width: number): Piece[] {
  for (let full = choices.length; full >= 0; full--) {
    const pieces = choicePieces(choices, (c) => (choices.indexOf(c) < full ? c.does : (c.short ?? c.does)));
    if (piecesWidth(pieces) <= width) return pieces;
  }
  return choicePieces(choices, () => '');
}

/** `text` in at most `lines` lines of `width`, broken at spaces; what does not fit ends the last line with `…`. */
export function wrapWords(text: string, width: number, lines: number): string[] {
  const out: string[] = [];
  let rest = text.trim();
  while (rest && out.length < lines) {
    if ([...rest].length <= width) {
      out.push(rest);
      rest = '';
      break;
    }
    if (out.length === lines - 1) {
      out.push(ellipsize(rest, width));
      rest = '';
      break;
    }
    const cut = rest.lastIndexOf(' ', width);
    const at = cut > 0 ? cut : width;
    out.push(rest.slice(0, at).trimEnd());
    rest = rest.slice(at).trimStart();
  }
  return out;
}

/** `text` cut to `width` at a word boundary, ending with `…` (mid-word only when one word is wider than all). */
export function ellipsize(text: string, width: number): string {
  if ([...text].length <= width) return text;
  if (width <= 1) return '…'.slice(0, width);
  const room = [...text].slice(0, width - 1).join('');
  const space = room.lastIndexOf(' ');
  const kept = space > width / 3 ? room.slice(0, space) : room;
  return `${kept.replace(/[\s,;:·(-]+$/, '')}…`;
}

/**
 * Fits `q` into `width` columns: one line `question  keys` when both fit, else the question (wrapped to two lines
 * at most) above a line of keys. `indent` columns go before the keys line.
 */
export function fitQuestion(q: Question, width: number, indent = 2): FittedQuestion {
  if (q.choices.length === 0) return { question: wrapWords(q.text, width, 2), keys: [], inline: true };
  const full = choicePieces(q.choices, (c) => c.does);
  if ([...q.text].length + 2 + piecesWidth(full) <= width) return { question: [q.text], keys: full, inline: true };
  return {
    question: wrapWords(q.text, width, 2),
    keys: fitChoices(q.choices, Math.max(0, width - indent)),
    inline: false,
  };
}

/** Rows a fitted question takes. */
export const questionRows = (fitted: FittedQuestion): number => fitted.question.length + (fitted.inline ? 0 : 1);
