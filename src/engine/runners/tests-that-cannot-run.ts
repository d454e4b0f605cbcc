import type { NormalizedResult, NotHere, TestCase } from '../types.js';
import type { NoTestRanCause } from './runner.js';

// What a test throws when this machine lacks a device or browser it needs: the error names the missing thing,
// never a wrong value. A terminal: the runs have no controlling terminal, so opening /dev/tty fails (ENXIO).
const SIGNS: { what: string; pattern: RegExp }[] = [
  {
    what: 'a terminal (/dev/tty)',
    pattern: /\b(?:ENXIO|ENODEV|ENOTTY)\b[^\n]*'\/dev\/tty'|\bopen '\/dev\/tty'[^\n]*\b(?:ENXIO|ENODEV)\b/,
  },
  { what: 'a device', pattern: /\b(?:ENXIO|ENODEV)\b[^\n]*'\/dev\/[^']+'/ },
  {
    what: 'a browser',
    pattern:
      /Could not find (?:Chrome|Chromium|Firefox|expected browser)|Failed to launch the browser process|Browser was not found|Executable doesn't exist at/,
  },
];

const QUOTED_LINES = 6;
// The line of a failure that names the file it could not find.
const MISSING_FILE_LINE = /no such file or directory/i;

/** A failure that counts as one: a failed test, or a file whose tests could not run at all. */
interface Found {
  name: string;
  kind: 'test' | 'test file';
  needs: NotHere;
  quote: string;
}

/**
 * A full run whose every failure is a test that needs something this machine lacks (a terminal, a device, a
 * browser, a git submodule that is not checked out): a fact about the machine, not the code, so it stops the
 * session before any agent call, naming each such test and quoting the runner's words. An error outside tests
 * counts only when it too failed for what is not here (a test file reading the absent submodule as it loads).
 * Null when any other test failed or anything else failed outside tests.
 */
export function testsThatCannotRunHere(result: NormalizedResult): NoTestRanCause | null {
  const failed = result.tests.filter((test) => test.status === 'failed');
  if (failed.length + result.errors.length === 0) return null;
  const found: Found[] = [];
  for (const test of failed) {
    const why = whyNotHere(test);
    if (!why) return null;
    found.push({ name: test.id, kind: 'test', ...why });
  }
  for (const error of result.errors) {
    if (!error.notHere) return null;
    found.push({
      name: error.file ?? firstLine(error.message),
      kind: 'test file',
      needs: error.notHere,
      quote: quoteOf(error.message, MISSING_FILE_LINE),
    });
  }
  const one = found.length === 1;
  const lacking = unique(found.map((f) => f.needs.what));
  const needs = `${lacking.join(' and ')} ${lacking.length === 1 ? 'is' : 'are'}`;
  const remedies = unique(found.map((f) => f.needs.remedy)).join('; ');
  const names = found.map((f) => `\`${f.name}\``).join(', ');
  const kinds = unique(found.map((f) => f.kind));
  const noun = kinds.length === 1 ? kinds[0]! : 'test and test file';
  // Many names come after the verdict, so the first words say what happened.
  const head = `${one ? `the ${noun} ${names}` : `${found.length} ${noun}s`} cannot run on this machine${one ? '' : ` (${names})`}: ${one ? 'it fails' : 'they fail'} only because ${needs} not here, which no change to the code can fix, so no agent is asked: ${remedies}, or leave ${one ? `the ${noun}` : 'them'} out of the command (--test-cmd "<a command without ${one ? 'it' : 'them'}>")`;
  const words = found
    .map(
      (f) =>
        `${f.name}:\n${f.quote
          .split('\n')
          .map((line) => `  ${line}`)
          .join('\n')}`,
    )
    .join('\n');
  return { cause: 'cannot run here', message: `${head}\nthe runner's own words:\n${words}`, testsRan: true };
}

/** True for a failing test (or an error outside tests) whose only trouble is something this machine lacks: never the agent's to fix. */
export function needsWhatIsNotHere(failure: { message: string; stack?: string; notHere?: NotHere }): boolean {
  return failure.notHere !== undefined || signOf(`${failure.message}\n${failure.stack ?? ''}`) !== undefined;
}

/** What a failed test lacks here, from the runner's mark or the words of its failure, with those words. */
function whyNotHere(test: TestCase): { needs: NotHere; quote: string } | undefined {
  const text = `${test.message ?? ''}\n${test.stack ?? ''}`;
  if (test.notHere) return { needs: test.notHere, quote: quoteOf(text, MISSING_FILE_LINE) };
  const sign = signOf(text);
  return sign
    ? {
        needs: { what: sign.what, remedy: `run fixcycle where it has ${sign.what}` },
        quote: quoteOf(text, sign.pattern),
      }
    : undefined;
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

function firstLine(text: string): string {
  return text.split('\n')[0]!.trim();
}

function signOf(text: string): { what: string; pattern: RegExp } | undefined {
  return SIGNS.find(({ pattern }) => pattern.test(text));
}

/** The line that names the missing thing and a few after it (the stack's first frames). */
function quoteOf(text: string, pattern: RegExp): string {
  const lines = text.split('\n');
  const at = Math.max(
    0,
    lines.findIndex((line) => pattern.test(line)),
  );
  return lines
    .slice(at, at + QUOTED_LINES)
    .join('\n')
    .trimEnd();
}
