import { Parser, type Result } from 'tap-parser';
import type { RunError, TestCase } from '../types.js';
import type { ParseOutcome } from './parse-outcome.js';
import { guarded, parsed, unusable, type ParseOptions } from './outcome.js';
import { inlineDurations } from './tap-durations.js';
import { hideSeparators, restoreSeparators } from './tap-line-separators.js';
import { tapFailure } from './tap-failure.js';
import { cutInsideTest } from './tap-cut.js';
import { tapTestCase, tapFileError } from './tap-points.js';
import { looksLikeFilePath, uniquifyIds } from './test-id.js';
import { nodeTapPoint } from './node-tap.js';
import type { Level } from './tap-level.js';

/** How a TAP stream's test points are counted. */
export type TapUnit = 'points' | 'subtests';

// Summary comments runners print at the end of a stream: never a tape test header.
const SUMMARY_COMMENT =
  /^(tests|suites|pass|fail|skip|skipped|todo|cancelled|duration_ms)\s+[\d.]+$|^ok$|^test count\(/;

/** Reads a TAP stream (tape, node:test, ava), subtests included: every test point is a test. */
export function parseTap(text: string, options: ParseOptions = {}): ParseOutcome {
  return readTap(text, options, 'points');
}

/**
 * Reads node-tap's stream, whose top level is one subtest per test file: a test is what tap itself counts in
 * each file's plan (`# failed 2 of 5 tests`), that is each top-level subtest or assertion of a file; what
 * fails inside a subtest is that subtest's failure message, so ids are subtest names, never an error's text.
 */
export function parseNodeTap(text: string, options: ParseOptions = {}): ParseOutcome {
  return readTap(text, options, 'subtests', 'node-tap');
}

function readTap(text: string, options: ParseOptions, unit: TapUnit, format = 'tap'): ParseOutcome {
  return guarded(format, () => {
    if (text.trim() === '')
      return unusable(`${format} report is empty; the runner wrote nothing (did it crash before reporting?)`);
    const tests: TestCase[] = [];
    const errors: RunError[] = [];
    const seen = { points: 0 };
    // node:test times every point in its YAML block; other producers do not (node-tap writes `# time=`).
    const nodeTest = /^\s*duration_ms: /m.test(text);
    const planned: Parser[] = [];
    const root = new Parser();
    const watch = (parser: Parser, level: Level): void => {
      parser.on('plan', () => planned.push(parser));
      parser.on('comment', (line: string) => onComment(line, level));
      parser.on('line', (line: string) => onLine(line, level));
      parser.on('child', (child: Parser) => {
        level.child = { failedInside: false };
        const inner: Level = {
          path: [...level.path, child.name],
          comments: [],
          failedInside: false,
          yaml: { lines: null },
        };
        // node-tap: a file's top-level subtest gathers every failure beneath it.
        if (unit === 'subtests')
          inner.failures = level.failures ?? (level.path.length === 1 ? (level.child.failures = []) : undefined);
        watch(child, inner);
        child.on('complete', () => {
          if (level.child) level.child.failedInside = inner.failedInside;
        });
      });
      parser.on('assert', (point: Result) => {
        seen.points += 1;
        const raw = level.yaml.last;
        level.yaml.last = undefined;
        if (unit === 'subtests') nodeTapPoint(point, level, { tests, errors }, raw, options.rootDir);
        else onPoint(point, level, { tests, errors, nodeTest }, raw, options.rootDir);
      });
    };
    const top: Level = { path: [], comments: [], failedInside: false, yaml: { lines: null } };
    watch(root, top);
    const stream = hideSeparators(text.replace(/^\uFEFF/, ''));
    root.end(inlineDurations(stream.text));
    // With no TAP in it, the parser makes up a version line and a `1..0` plan: neither counts.
    if (seen.points === 0 && planned.every((p) => p.syntheticPlan) && !/^TAP version \d+/m.test(text)) {
      return unusable(`${format} report has no test points, plan or \`TAP version\` line; is this a TAP stream?`);
    }
    if (root.bailedOut)
      errors.push({ message: `Bail out! ${typeof root.bailedOut === 'string' ? root.bailedOut : ''}`.trim() });
    const truncated = isCutOff(root);
    // tape's `# name` header still open when the stream stops: the test a throw cut.
    if (truncated && unit === 'points' && !nodeTest && top.group)
      errors.push(cutInsideTest(text, top.group, options.rootDir));
    const read = { tests: uniquifyIds(tests), errors };
    return parsed({ format, ...(stream.hidden ? restoreSeparators(read) : read), truncated });
  });
}

/**
 * Keeps each test point's YAML block as printed: YAML rejects some that runners write (duplicate keys).
 * A parser also sees its subtests' lines, indented; its own block follows its own point, indented by two.
 */
function onLine(line: string, level: Level): void {
  const yaml = level.yaml;
  if (yaml.lines) {
    if (/^ {2}\.\.\.\s*$/.test(line)) {
      yaml.last = yaml.lines.join('');
      yaml.lines = null;
    } else yaml.lines.push(line);
    return;
  }
  const afterPoint = yaml.afterPoint === true;
  yaml.afterPoint = /^(not )?ok\b/.test(line);
  if (yaml.afterPoint) yaml.last = undefined;
  else if (afterPoint && /^ {2}---\s*$/.test(line)) yaml.lines = [];
}

function onComment(line: string, level: Level): void {
  const comment = line.replace(/^\s*#\s?/, '').replace(/\s+$/, '');
  level.comments.push(comment);
  if (comment.startsWith('Subtest:')) level.group = undefined;
  // tape announces a skipped test as `# SKIP name` with no test point, and does not count it: neither do we.
  else if (/^SKIP\s/.test(comment)) {
    level.group = undefined;
  } else if (!SUMMARY_COMMENT.test(comment)) level.group = comment.replace(/^TODO\s+/, '');
}

function onPoint(
  point: Result,
  level: Level,
  out: { tests: TestCase[]; errors: RunError[]; nodeTest: boolean },
  rawYaml: string | undefined,
  rootDir?: string,
): void {
  const child = level.child;
  level.child = undefined;
  const failed = !point.ok && !point.todo && !point.skip;
  const comments = level.comments;
  level.comments = [];
  // A point that closes a subtest (or a node:test suite) is a group, not a test,
  // unless it failed on its own: a hook that threw, a file that did not load.
  const isGroup = child !== undefined || point.diag?.type === 'suite';
  if (isGroup && !(failed && !child?.failedInside) && !(out.nodeTest && isNodeTestParent(point, child))) {
    level.failedInside ||= child?.failedInside ?? false;
    return;
  }
  if (failed) level.failedInside = true;
  if (failed && level.path.length === 0 && outsideTests(point)) {
    const detail = tapFailure(point.name, point.diag ?? null, rawYaml, rootDir);
    out.errors.push({ message: detail.message, ...(detail.file ? { file: detail.file } : {}) });
    return;
  }
  if (failed && level.path.length === 0 && looksLikeFilePath(point.name)) {
    out.errors.push(tapFileError(point, comments, rootDir));
    // The comments before it were the file's error, not a tape test header.
    level.group = undefined;
    return;
  }
  const path = [...level.path, ...(level.group && child === undefined ? [level.group] : []), idName(point)];
  const test = tapTestCase(point, path, rootDir, rawYaml);
  if (point.name) test.name = point.name;
  out.tests.push(test);
}

/**
 * node:test's test with subtests (`t.test()` inside `test()`, not a `describe` suite): node counts it among its
 * `# tests`, passed or failed with its subtests, so it is a test here too; a suite is marked `type: 'suite'`.
 */
function isNodeTestParent(point: Result, child: Level['child']): boolean {
  return child !== undefined && point.diag?.type !== 'suite';
}

/**
 * The name a point's id is made of. tape names a `t.error(err)` without a message after the error, `null`
 * while it passes and `Error: ENOENT...` once it fails: both are the same assertion, `t.error`.
 */
function idName(point: Result): string {
  if (!point.name) return `#${point.id}`;
  if (point.ok && (point.name === 'null' || point.name === 'undefined')) return 't.error';
  const diag = point.diag as Record<string, unknown> | null | undefined;
  if (
    !point.ok &&
    diag?.operator === 'error' &&
    typeof diag.stack === 'string' &&
    diag.stack.split('\n')[0]!.trim() === point.name.trim()
  )
    return 't.error';
  return point.name;
}

// ava's points for what failed outside any test: a worker that exited or timed out, no tests in a file.
const AVA_RUN_FAILURE =
  /^(?:.+ exited with a non-zero exit code: \d+|.+ exited due to \w+|Timed out while running tests|No tests found in .+)$/;

/**
 * A failed point that is no test: ava's run failures, and an uncaught error ava names after the error itself
 * (`Error [ERR_X]: ...`): its name is the error's text, which a fix removes, so it is an error, not a test.
 */
function outsideTests(point: Result): boolean {
  if (AVA_RUN_FAILURE.test(point.name.trim())) return true;
  const kind = point.diag?.name;
  return (
    typeof kind === 'string' &&
    /Error$/.test(kind) &&
    (point.name.startsWith(`${kind}: `) || point.name.startsWith(`${kind} [`))
  );
}

/** A stream without its plan, or with fewer test points than planned, stopped early. */
function isCutOff(root: Parser): boolean {
  const final = root.results;
  if (!final) return true;
  // After `Bail out!` the stream stops on purpose; the bail-out is reported as an error instead.
  if (root.bailedOut) return false;
  if (root.syntheticPlan) return true;
  const { start, end } = final.plan;
  if (start === null || end === null || start === undefined || end === undefined) return true;
  return final.count < end - start + 1;
}
