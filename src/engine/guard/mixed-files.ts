import type { FileDiff } from './diff.js';
import { TEST_CASE } from './patterns.js';

/** A doctest prompt (`>>> add(2, 3)`) or its continuation (`... `). */
const DOCTEST_PROMPT = /^\s*(>>>|\.\.\.)(\s|$)/;
/** Unit tests kept inside a source file: Rust's `#[cfg(test)]` module, Python's `if __name__ == "__main__": doctest`. */
const INLINE_TEST_MODULE = /#\[cfg\(test\)\]|\bdoctest\.testmod\s*\(/;

/**
 * True when a file the runner reported tests from is a test file, false when it is a source file that also
 * holds tests (doctests in a Python module, a Rust module's `#[cfg(test)]` tests). Only a file whose tests are
 * its own test cases, with no code beside them, is a test file: a test id's file is not always a test file.
 */
export function holdsOnlyTests(content: string): boolean {
  if (INLINE_TEST_MODULE.test(content)) return false;
  if (content.split('\n').some((line) => DOCTEST_PROMPT.test(line))) return false;
  return TEST_CASE.test(content);
}

/**
 * The doctest lines a change adds or removes: prompts, and the expected output under them (the lines after a
 * prompt up to a blank line or the end of the docstring). Changing those changes what the test expects.
 */
export function doctestLinesChanged(d: FileDiff, content: string): string[] {
  const expected = new Set<string>();
  let inExample = false;
  for (const line of content.split('\n')) {
    if (DOCTEST_PROMPT.test(line)) {
      inExample = true;
      expected.add(line.trim());
    } else if (inExample && line.trim() !== '' && !/^\s*("""|''')/.test(line)) expected.add(line.trim());
    else inExample = false;
  }
  const added = d.added.filter((line) => expected.has(line.trim()));
  const removedPrompts = d.removed.filter((line) => DOCTEST_PROMPT.test(line));
  return [...added, ...removedPrompts];
}
