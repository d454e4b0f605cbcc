// tap-parser cuts its input into lines with /^.*\r?\n/, and `.` in a JavaScript pattern stops at U+2028 and
// U+2029 (LINE and PARAGRAPH SEPARATOR): one test named with either (fast-json-stringify has two) stops the
// parser there, and the rest of the stream reads as cut off. They are swapped for private-use characters while
// the stream is parsed, and swapped back in what was read.
const SEPARATORS = /[\u2028\u2029]/g;
const STAND_INS = /[\uE028\uE029]/g;
const TO_STAND_IN: Record<string, string> = { '\u2028': '\uE028', '\u2029': '\uE029' };
const FROM_STAND_IN: Record<string, string> = { '\uE028': '\u2028', '\uE029': '\u2029' };

/** The stream with its line and paragraph separators hidden from the parser, and whether there were any. */
export function hideSeparators(text: string): { text: string; hidden: boolean } {
  if (!/[\u2028\u2029]/.test(text)) return { text, hidden: false };
  return { text: text.replace(SEPARATORS, (c) => TO_STAND_IN[c]!), hidden: true };
}

/** What was read from a stream `hideSeparators` changed, with the separators back in its strings. */
export function restoreSeparators<T>(value: T): T {
  return JSON.parse(JSON.stringify(value).replace(STAND_INS, (c) => FROM_STAND_IN[c]!)) as T;
}
