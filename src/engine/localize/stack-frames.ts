import { normalizeFile } from '../report/test-id.js';
import type { Failure } from '../types.js';
import { isSuspectSource } from './source-paths.js';

/** A frame of a failure's stack in the project's own source, with the weight its depth gives it. */
export interface SourceFrame {
  file: string;
  line: number;
  /** 1 for the innermost frame in the project, 1/2 for the next, and so on. */
  weight: number;
  /** The failing test it came from. */
  test: string;
}

// `path:line` as stacks print it: JS `at f (src/a.js:12:5)`, Go `a.go:12 +0x1d`, Rust `src/lib.rs:12:5`,
// pytest `pkg/mod.py:12: in f`; and Python's `File "pkg/mod.py", line 12, in f`.
const FRAME = /((?:file:\/\/)?[^\s()'"<>]+\.(?:[cm]?[jt]sx?|py|go|rs))(?::(\d+)|", line (\d+))/g;
const LIBRARY =
  /(^|\/)(node_modules|site-packages|dist-packages|lib\/python[\d.]+|\.cargo\/registry|rustc\/[0-9a-f]+|go\/src|pkg\/mod)\/|^node:|^internal\//;

/** The frames of one text in the order printed, as project-relative paths (library frames dropped). */
function framesIn(text: string, root: string): { file: string; line: number }[] {
  const out: { file: string; line: number }[] = [];
  for (const m of text.matchAll(FRAME)) {
    if (LIBRARY.test(m[1]!)) continue;
    const file = normalizeFile(m[1]!, root);
    if (!file || file.startsWith('..') || file.startsWith('/')) continue;
    out.push({ file, line: Number(m[2] ?? m[3]) });
  }
  return out;
}

/**
 * The frames of every failure in the project's own code, innermost first (Python prints the innermost
 * last), each weighted by its depth among the project's frames, test files included in the count but not
 * returned: the code under test is what a suspect names.
 */
export function sourceFrames(failures: readonly Failure[], root: string): SourceFrame[] {
  const frames: SourceFrame[] = [];
  for (const failure of failures)
    stackLocations(failure, root).forEach((frame, depth) => {
      if (isSuspectSource(frame.file)) frames.push({ ...frame, weight: 1 / (1 + depth), test: failure.id });
    });
  return frames;
}

/** A failure's frames in the project (tests included), innermost first, each place once. */
export function stackLocations(failure: Failure, root: string): { file: string; line: number }[] {
  const text = [failure.stack ?? '', failure.message].join('\n');
  let found = framesIn(text, root);
  if (found.some((f) => f.file.endsWith('.py'))) found = found.reverse();
  const seen = new Set<string>();
  return found.filter((frame) => {
    const key = `${frame.file}:${frame.line}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
