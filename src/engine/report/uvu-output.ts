import type { RunError, TestCase } from '../types.js';
import type { ParseOutcome } from './parse-outcome.js';
import { guarded, parsed, unusable, type ParseOptions } from './outcome.js';
import { normalizeFile, uniquifyIds } from './test-id.js';

// uvu 0.5 prints, per file (a header with its name, under `uvu DIR`) and per suite:
//   math.js
//   • ✘ ✘   (1 / 3)                     <- the default suite: one mark a test, in order
//      FAIL  "subtracts"                 <- one block a failed test, in the same order
//       Expected values to be deeply equal:  (equal)
//    strings  • ✘   (1 / 2)             <- a named suite
//      FAIL  strings  "lower"
//   Total: 7 / Passed: 4 / Skipped: 1 / Duration: 8.33ms
const MARKS_LINE = /^\s*(?:([^•✘\s].*?)\s+)?((?:[•✘]\s)+)\s*\((\d+) \/ (\d+)\)\s*$/;
const FAIL_LINE = /^\s*FAIL\s+(?:(.+?)\s+)?"(.*)"\s*$/;
const TOTALS = /^\s*(Total|Passed|Skipped|Duration):\s+(\d+)[\w.]*\s*$/;

interface Suite {
  file: string | undefined;
  name: string;
  tests: TestCase[];
  /** The failed tests, in order, waiting for their FAIL blocks. */
  failedQueue: TestCase[];
}

/**
 * Reads uvu's console output, the only report uvu has: a test's id is its file, suite and place in the suite
 * (uvu prints no name for a test that passed), and a failed test gets its name and error from its FAIL block.
 */
export function parseUvuOutput(text: string, options: ParseOptions = {}): ParseOutcome {
  return guarded('uvu', () => {
    const lines = text
      // eslint-disable-next-line no-control-regex
      .replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '')
      .replace(/\r/g, '')
      .split('\n');
    const tests: TestCase[] = [];
    const errors: RunError[] = [];
    const totals = new Map<string, number>();
    let file: string | undefined;
    let suite: Suite | null = null;
    let block: { test: TestCase; lines: string[] } | null = null;
    const closeBlock = (): void => {
      if (block) finishFailure(block.test, block.lines, options.rootDir);
      block = null;
    };
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      const marks = MARKS_LINE.exec(line);
      const fail = FAIL_LINE.exec(line);
      const total = TOTALS.exec(line);
      if (marks) {
        closeBlock();
        suite = readSuite(file, marks[1]?.trim() ?? '', marks[2]!);
        tests.push(...suite.tests);
      } else if (fail && suite) {
        closeBlock();
        const test = suite.failedQueue.shift();
        if (test) {
          test.name = fail[2]!;
          block = { test, lines: [] };
        }
      } else if (total) {
        closeBlock();
        totals.set(total[1]!, Number(total[2]));
      } else if (/^\S+\.[cm]?[jt]sx?$/.test(line)) {
        // A file's header, unindented; a FAIL block's lines are all indented.
        closeBlock();
        file = line;
        suite = null;
      } else if (block) {
        (block as { lines: string[] }).lines.push(line);
      }
    }
    closeBlock();
    if (tests.length === 0 && totals.size === 0)
      return unusable('uvu output has no test marks and no Total line; did uvu run?');
    // uvu counts skipped tests in its totals only.
    for (let n = 1; n <= (totals.get('Skipped') ?? 0); n++)
      tests.push({ id: `skipped#${n}`, name: `skipped test ${n} (uvu prints no name for it)`, status: 'skipped' });
    // uvu ends with Total, Passed, Skipped and Duration: output without them all, or with other counts, stopped early.
    const complete = ['Total', 'Passed', 'Skipped', 'Duration'].every((key) => totals.has(key));
    const ran = tests.filter((t) => t.status !== 'skipped');
    const truncated =
      !complete ||
      totals.get('Total') !== ran.length ||
      totals.get('Passed') !== ran.filter((t) => t.status === 'passed').length;
    return parsed({ format: 'uvu', tests: uniquifyIds(tests), errors, truncated });
  });
}

function readSuite(file: string | undefined, name: string, marks: string): Suite {
  const suite: Suite = { file, name, tests: [], failedQueue: [] };
  const symbols = marks.trim().split(/\s+/);
  symbols.forEach((symbol, index) => {
    const place = `${name || '(default suite)'} > test ${index + 1}`;
    const test: TestCase = {
      id: file ? `${file}::${place}` : place,
      name: `${name ? `${name} ` : ''}test ${index + 1}`,
      status: symbol === '✘' ? 'failed' : 'passed',
    };
    if (test.status === 'failed') suite.failedQueue.push(test);
    suite.tests.push(test);
  });
  return suite;
}

/** A FAIL block's text as the message (uvu's `·` spaces made plain), its first frame in the project as the place. */
function finishFailure(test: TestCase, lines: string[], rootDir?: string): void {
  const plain = lines.map((line) => line.replace(/·/g, ' ').trimEnd());
  const margin = Math.min(...plain.filter((line) => line.trim() !== '').map((line) => /^ */.exec(line)![0].length));
  const body = plain.map((line) => line.slice(Number.isFinite(margin) ? margin : 0));
  const firstFrame = body.findIndex((line) => /^\s*at\s/.test(line));
  const message = (firstFrame === -1 ? body : body.slice(0, firstFrame)).join('\n').trim();
  const stack = firstFrame === -1 ? '' : body.slice(firstFrame).join('\n').trim();
  let where: string | undefined;
  for (const match of stack.matchAll(/\(?((?:file:\/\/)?\/[^\s():]+):(\d+):(\d+)\)?/g)) {
    if (/node_modules\/|^node:/.test(match[1]!)) continue;
    const file = normalizeFile(match[1], rootDir);
    if (file) {
      test.file = file;
      where = `${file}:${match[2]}:${match[3]}`;
      break;
    }
  }
  test.message = [message || 'failed', ...(where ? [`at ${where}`] : [])].join('\n');
  if (stack) test.stack = stack;
}
