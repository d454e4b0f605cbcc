import type { NormalizedResult, TestCase } from '../types.js';
import type { NoTestRanCause } from './runner.js';

// What a test throws when this machine lacks a device or browser it needs: the error names the missing thing,
// never a wrong value. A terminal: the runs have no controlling terminal, so opening /dev/tty fails (ENXIO).
const SIGNS: { what: string; pattern: RegExp }[] = [
  { what: 'a terminal (/dev/tty)', pattern: /\b(?:ENXIO|ENODEV|ENOTTY)\b[^\n]*'\/dev\/tty'|\bopen '\/dev\/tty'[^\n]*\b(?:ENXIO|ENODEV)\b/ },
  { what: 'a device', pattern: /\b(?:ENXIO|ENODEV)\b[^\n]*'\/dev\/[^']+'/ },
  { what: 'a browser', pattern: /Could not find (?:Chrome|Chromium|Firefox|expected browser)|Failed to launch the browser process|Browser was not found|Executable doesn't exist at/ },
];

const QUOTED_LINES = 6;

/**
 * A full run whose every failure is a test that needs something this machine lacks (a terminal, a device, a
 * browser): a fact about the machine, not the code, so it stops the session before any agent call, naming each
 * such test and quoting the runner's words. Null when any other test failed or anything failed outside tests.
 */
export function testsThatCannotRunHere(result: NormalizedResult): NoTestRanCause | null {
  const failed = result.tests.filter((test) => test.status === 'failed');
  if (failed.length === 0 || result.errors.length > 0) return null;
  const found: { test: TestCase; what: string; quote: string }[] = [];
  for (const test of failed) {
    const text = `${test.message ?? ''}\n${test.stack ?? ''}`;
    const sign = signOf(text);
    if (!sign) return null;
    found.push({ test, what: sign.what, quote: quoteOf(text, sign.pattern) });
  }
  const needs = [...new Set(found.map((f) => f.what))].join(' and ');
  const names = found.map((f) => `\`${f.test.id}\``).join(', ');
  const head = `${found.length === 1 ? 'the test' : `${found.length} tests`} ${names} cannot run on this machine: ${found.length === 1 ? 'it fails' : 'they fail'} only because ${needs} is not here, which no change to the code can fix, so no agent is asked: run fixcycle where it has ${needs}, or leave ${found.length === 1 ? 'the test' : 'them'} out of the command (--test-cmd "<a command without ${found.length === 1 ? 'it' : 'them'}>")`;
  const words = found.map((f) => `${f.test.id}:\n${f.quote.split('\n').map((line) => `  ${line}`).join('\n')}`).join('\n');
  return { cause: 'cannot run here', message: `${head}\nthe runner's own words:\n${words}`, testsRan: true };
}

/** True for a failing test whose only trouble is something this machine lacks: never the agent's to fix. */
export function needsWhatIsNotHere(failure: { message: string; stack?: string }): boolean {
  return signOf(`${failure.message}\n${failure.stack ?? ''}`) !== undefined;
}

function signOf(text: string): { what: string; pattern: RegExp } | undefined {
  return SIGNS.find(({ pattern }) => pattern.test(text));
}

/** The line that names the missing thing and a few after it (the stack's first frames). */
function quoteOf(text: string, pattern: RegExp): string {
  const lines = text.split('\n');
  const at = Math.max(0, lines.findIndex((line) => pattern.test(line)));
  return lines.slice(at, at + QUOTED_LINES).join('\n').trimEnd();
}
