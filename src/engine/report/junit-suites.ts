import type { RunError, TestCase, TestStatus } from '../types.js';
import { splitFailureText } from './failure-text.js';
import { isSubtestCase, markedSubtestSkips, readSubtestCase, resultsCounted } from './junit-subtests.js';
import { asArray, asRecord, asString } from './outcome.js';
import { looksLikeFilePath, makeTestId, normalizeFile } from './test-id.js';

interface Scope {
  /** Names of the enclosing `<testsuite>` elements. */
  path: string[];
  /** The nearest enclosing suite's `file` attribute. */
  file?: string;
  rootDir?: string;
  /** The last place worked out in this suite: test cases of one suite nearly always share it. */
  place?: Place & { key: string };
  /** Leaf suites of this document that count more tests than they list (shared by every scope of one root). */
  gaps?: Gap[];
}

/** A suite that counts more test cases than it lists, and where its unlisted ones would go. */
interface Gap {
  unlisted: number;
  scope: Scope;
}

/** Where a test case lives: its file and the id prefix before its name. */
interface Place {
  file?: string;
  prefix: string;
}

/** Walks parsed `<testsuite>` trees into tests and errors outside tests. */
export function readSuites(containers: unknown[], rootDir?: string): { tests: TestCase[]; errors: RunError[] } {
  const out = { tests: [] as TestCase[], errors: [] as RunError[] };
  for (const container of containers) {
    const root = asRecord(container);
    const gaps: Gap[] = [];
    const first = out.tests.length;
    readContainer(root, { path: [], rootDir, gaps }, out);
    if (root) addRootSkipped(root, gaps, out.tests, first);
  }
  return out;
}

function readContainer(
  node: Record<string, unknown> | undefined,
  scope: Scope,
  out: { tests: TestCase[]; errors: RunError[] },
): void {
  if (!node) return;
  for (const item of asArray(node.testcase)) {
    const testcase = asRecord(item);
    if (testcase) readTestcase(testcase, scope, out);
  }
  for (const item of asArray(node.testsuite)) {
    const suite = asRecord(item);
    if (suite) readSuite(suite, scope, out);
  }
}

function readSuite(suite: Record<string, unknown>, scope: Scope, out: { tests: TestCase[]; errors: RunError[] }): void {
  const name = attr(suite, 'name');
  const file = attr(suite, 'file') ?? scope.file;
  const inner: Scope = {
    path: name ? [...scope.path, name] : scope.path,
    rootDir: scope.rootDir,
    ...(file ? { file } : {}),
    ...(scope.gaps ? { gaps: scope.gaps } : {}),
  };
  const before = out.tests.length + out.errors.length;
  const firstTest = out.tests.length;
  const firstError = out.errors.length;
  readContainer(suite, inner, out);
  addUnlistedSkipped(suite, inner, out.tests, firstTest);
  // <error>/<failure> right inside a suite: the suite failed outside its tests (pytest collection, a crashed binary).
  const problems = [...asArray(suite.error), ...asArray(suite.failure)];
  for (const problem of problems) {
    out.errors.push({ message: problemText(problem).message, ...fileOf(file ?? name, scope.rootDir) });
  }
  mergeFileErrors(out.errors, firstError);
  markUnlistedTodos(suite, out.tests, firstTest);
  noteGap(suite, inner, out, firstTest, firstError);
  const declared = Number(attr(suite, 'errors') ?? 0);
  if (problems.length === 0 && out.tests.length + out.errors.length === before && declared > 0) {
    out.errors.push({
      message: `suite "${name ?? '(unnamed)'}" reports ${declared} error(s) and no test cases`,
      ...fileOf(file ?? name, scope.rootDir),
    });
  }
}

/**
 * Skipped tests a suite counts (`skipped="1"`) but does not list: libtest's JUnit (cargo) leaves ignored tests
 * out, as mocha-junit-reporter does pending ones without `includePending`. They are the runner's own count, so
 * they are kept, numbered within their suite. Only for a suite of test cases: an outer suite's count is its
 * inner suites' sum.
 */
function addUnlistedSkipped(suite: Record<string, unknown>, scope: Scope, tests: TestCase[], first: number): void {
  if (suite.testsuite !== undefined) return;
  const declared = Number(attr(suite, 'skipped') ?? attr(suite, 'disabled') ?? 0);
  const listed = resultsCounted(tests.slice(first), 'skipped');
  for (let n = listed + 1; n <= declared; n++) {
    const name = `skipped test ${n} of ${declared} (counted by the suite, not listed)`;
    const file = fileOf(scope.file, scope.rootDir).file;
    tests.push({ id: makeTestId(file, [...scope.path, name]), name, status: 'skipped', ...(file ? { file } : {}) });
  }
}

/**
 * mocha-junit-reporter counts pending tests only in its root's `skipped` and in each suite's `tests`, listing none
 * of them. A leaf suite listing fewer cases than its `tests` holds them, unless a hook failed in it (its tests then
 * never ran and mocha counts them nowhere). The root's count is the runner's own, so the unlisted ones are kept.
 */
function noteGap(
  suite: Record<string, unknown>,
  scope: Scope,
  out: { tests: TestCase[]; errors: RunError[] },
  firstTest: number,
  firstError: number,
): void {
  if (!scope.gaps || suite.testsuite !== undefined) return;
  const unlisted =
    Number(attr(suite, 'tests') ?? 0) - resultsCounted(out.tests.slice(firstTest)) - (out.errors.length - firstError);
  const hookFailed = out.errors.slice(firstError).some((e) => HOOK.test(e.message));
  if (unlisted > 0 && !hookFailed) scope.gaps.push({ unlisted, scope });
}

/**
 * jest-junit (reportTestSuiteErrors) writes a suite that failed to run as two cases named for its file: the error
 * and the same error as JSON. jest counts one failed suite: one error per file, the JSON dropped.
 */
function mergeFileErrors(errors: RunError[], first: number): void {
  for (let i = errors.length - 1; i > first; i--) {
    const [earlier, later] = [errors[i - 1]!, errors[i]!];
    if (earlier.file === undefined || earlier.file !== later.file) continue;
    if (!isBareJson(later.message))
      earlier.message = isBareJson(earlier.message) ? later.message : `${earlier.message}\n${later.message}`;
    errors.splice(i, 1);
  }
}

function isBareJson(message: string): boolean {
  return /^\s*\{[\s\S]*\}\s*$/.test(message);
}

/**
 * jest-junit lists `it.todo` tests as plain cases but leaves them out of its suite's `tests` (passed + failed +
 * pending): the surplus are todos, which jest counts apart from passes. They have no time (jest-junit writes 0).
 */
function markUnlistedTodos(suite: Record<string, unknown>, tests: TestCase[], first: number): void {
  if (suite.testsuite !== undefined) return;
  const surplus = resultsCounted(tests.slice(first)) - Number(attr(suite, 'tests') ?? Infinity);
  if (!(surplus > 0)) return;
  const candidates = tests.slice(first).filter((t) => t.status === 'passed' && t.durationMs === 0);
  if (candidates.length < surplus) return;
  for (const test of candidates.slice(-surplus)) test.status = 'skipped';
}

function addRootSkipped(root: Record<string, unknown>, gaps: Gap[], tests: TestCase[], first: number): void {
  let missing = Number(attr(root, 'skipped') ?? 0) - resultsCounted(tests.slice(first), 'skipped');
  for (const gap of [...gaps, { unlisted: Infinity, scope: { path: [] } as Scope }]) {
    const count = Math.min(gap.unlisted, missing);
    if (!(count > 0)) continue;
    missing -= count;
    const file = fileOf(gap.scope.file, gap.scope.rootDir).file;
    for (let n = 1; n <= count; n++) {
      const name = `skipped test ${n} of ${count} (counted by the run, not listed)`;
      tests.push({
        id: makeTestId(file, [...gap.scope.path, name]),
        name,
        status: 'skipped',
        ...(file ? { file } : {}),
      });
    }
  }
}

function readTestcase(
  testcase: Record<string, unknown>,
  scope: Scope,
  out: { tests: TestCase[]; errors: RunError[] },
): void {
  const name = attr(testcase, 'name') ?? '(unnamed test)';
  const classname = attr(testcase, 'classname');
  // Most test cases pass: skip the list building for them (it shows in 50,000-test reports).
  const problems =
    testcase.failure === undefined && testcase.error === undefined
      ? NONE
      : [...asArray(testcase.failure), ...asArray(testcase.error)];
  const texts = problems.length > 0 ? problems.map(problemText) : [];
  if (problems.length > 0 && HOOK.test(name)) {
    out.errors.push({ message: `${name}: ${messageOutsideTests(texts)}`, ...fileOf(scope.file, scope.rootDir) });
    return;
  }
  if (problems.length > 0 && isOutsideTests(name, texts)) {
    out.errors.push({ message: messageOutsideTests(texts), ...fileOf(fileOutsideTests(name, texts), scope.rootDir) });
    return;
  }
  const place = placeOf(scope, classname, attr(testcase, 'file'));
  const skips = testcase.skipped === undefined ? 0 : toList(testcase.skipped).length;
  if (isSubtestCase(skips, texts, place.file, markedSubtestSkips(testcase))) {
    const seconds = Number.parseFloat(attr(testcase, 'time') ?? '');
    const subtests = { id: place.prefix + name, name, file: place.file, skips, texts };
    out.tests.push(...readSubtestCase(subtests, Number.isFinite(seconds) ? Math.round(seconds * 1000) : undefined));
    return;
  }
  const status: TestStatus = problems.length > 0 ? 'failed' : skips > 0 ? 'skipped' : 'passed';
  const test: TestCase = { id: place.prefix + name, name, status };
  if (place.file) test.file = place.file;
  const seconds = Number.parseFloat(attr(testcase, 'time') ?? '');
  if (Number.isFinite(seconds)) test.durationMs = Math.round(seconds * 1000);
  // Retried tests (nextest, surefire): earlier failed attempts as <flakyFailure> (passed at last) or <rerunFailure>.
  let retries = 0;
  for (const tag of RETRY_TAGS) if (tag in testcase) retries += toList(testcase[tag]).length;
  if (retries > 0) test.retries = retries;
  if (status === 'skipped') {
    const reason = skipReasonOf(testcase.skipped);
    if (reason) test.skipReason = reason;
  }
  if (status === 'failed') {
    const output = bareFailure(texts) ? outputText(testcase) : undefined;
    test.message = output?.message ?? texts.map((t) => t.message).join('\n');
    const stack =
      output?.stack ??
      texts
        .map((t) => t.stack)
        .filter(Boolean)
        .join('\n\n');
    if (stack) test.stack = stack;
  }
  out.tests.push(test);
}

const NONE: unknown[] = [];

/** The first `<skipped>`'s words: its message, else its text (pytest writes `path:line: reason` there). */
function skipReasonOf(skipped: unknown): string | undefined {
  const first = toList(skipped)[0];
  const node = asRecord(first);
  const text = (node && attr(node, 'message')) || (typeof first === 'string' ? first : asString(node?.['#text']));
  return text?.trim() || undefined;
}
const RETRY_TAGS = ['flakyFailure', 'flakyError', 'rerunFailure', 'rerunError'];

function placeOf(scope: Scope, classname: string | undefined, fileAttr: string | undefined): Place {
  const key = `${classname ?? ''}\u0000${fileAttr ?? ''}`;
  if (scope.place?.key === key) return scope.place;
  const rawFile = fileAttr ?? scope.file ?? pathLike(classname) ?? pathLike(scope.path[0]);
  const file = normalizeFile(rawFile, scope.rootDir);
  const suites = scope.path.filter((s, i) => s !== rawFile && s !== classname && !(i === 0 && WRAPPER_SUITES.has(s)));
  const idOfEmpty = makeTestId(file ?? locatorOf(classname), [...suites, ...pythonClasses(file, classname), '']);
  scope.place = { key, prefix: idOfEmpty, ...(file ? { file } : {}) };
  return scope.place;
}

/**
 * The test classes in pytest's classname (`tests.test_x.TestC` for tests/test_x.py): part of the test's identity,
 * as in pytest's node id `tests/test_x.py::TestC::test_a`, so two classes' `test_a` stay two tests.
 */
function pythonClasses(file: string | undefined, classname: string | undefined): string[] {
  if (!file?.endsWith('.py') || !classname) return [];
  const module = file.slice(file.lastIndexOf('/') + 1, -3);
  const parts = classname.split('.');
  const at = parts.lastIndexOf(module);
  return at >= 0 ? parts.slice(at + 1) : [];
}

/** Elements fast-xml-parser does not make lists of: one is an object (or a string), several an array. */
function toList(value: unknown): unknown[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/** A failure with nothing but a type (libtest writes `<failure type="assert"/>` and the panic to system-out). */
function bareFailure(texts: { message: string; stack?: string }[]): boolean {
  return texts.every((t) => t.stack === undefined);
}

/** The panic or error a test printed, for failures that carry no message of their own. */
function outputText(testcase: Record<string, unknown>): { message: string; stack: string } | undefined {
  const raw = testcase['system-out'];
  const parts = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
  const text = parts
    .map((o) => (typeof o === 'string' ? o : (asString(asRecord(o)?.['#text']) ?? '')))
    .join('\n')
    .trim();
  if (!text) return undefined;
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const end = lines.findIndex((l) => /^stack backtrace:|^note: run with/.test(l));
  return { message: lines.slice(0, end > 0 ? Math.min(end, 4) : 4).join('\n'), stack: text };
}

// mocha's hook failures: `"before all" hook for "reads a row"` (mocha-junit-reporter names a test case so).
const HOOK = /"(?:before|after) (?:all|each)" hook\b/;

/** A test case that stands for a whole file which failed before its tests ran. */
function isOutsideTests(name: string, texts: { message: string }[]): boolean {
  return looksLikeFilePath(name) || texts.some((t) => t.message === 'collection failure');
}

function messageOutsideTests(texts: { message: string; stack?: string }[]): string {
  return texts
    .map((t) => {
      // pytest's cause is the last `E   ` line of the traceback ("E   ModuleNotFoundError: No module named 'x'").
      const cause = t.stack
        ?.split('\n')
        .filter((l) => /^E\s/.test(l))
        .pop()
        ?.replace(/^E\s+/, '');
      if (cause) return `${t.message}: ${cause}`;
      // jest-junit: "  ● Test suite failed to run\n\n    TypeError: ..." (the cause is the next line).
      if (/●\s*Test suite failed to run/.test(t.message) || /^\s*●\s*Test suite failed to run/.test(t.stack ?? '')) {
        const next = t.stack
          ?.split('\n')
          .map((l) => l.trim())
          .filter((l) => l !== '' && !l.includes('Test suite failed to run'))[0];
        return next ? `test suite failed to run: ${next}` : 'test suite failed to run';
      }
      if (t.message === 'test failed')
        return "test file failed (node:test's JUnit keeps no cause: see its TAP or spec output)";
      return t.message;
    })
    .join('\n');
}

function fileOutsideTests(name: string, texts: { message: string; stack?: string }[]): string {
  if (looksLikeFilePath(name)) return name;
  // pytest: "ImportError while importing test module '/abs/tests/test_x.py'."
  const module = texts.map((t) => /test module '([^']+)'/.exec(t.stack ?? '')?.[1]).find(Boolean);
  return module ?? name;
}

function problemText(problem: unknown): { message: string; stack?: string } {
  const node = asRecord(problem);
  const body = typeof problem === 'string' ? problem : asString(node?.['#text']);
  const split = splitFailureText(body);
  const message = (node && attr(node, 'message')) || split?.message || (node && attr(node, 'type')) || 'failed';
  const stack = body?.trim() || undefined;
  return stack && stack !== message ? { message, stack } : { message };
}

// Top-level suites that only wrap a run: pytest's default junit_suite_name, libtest's "test", mocha-junit-reporter's root.
const WRAPPER_SUITES = new Set(['pytest', 'test', 'Root Suite']);

/** A classname that says where a test lives (`tests.test_math`, `com.acme.FooTest`, `tests`); node:test's constant "test" does not. */
function locatorOf(classname: string | undefined): string | undefined {
  return classname && classname !== 'test' && !/\s/.test(classname) ? classname : undefined;
}

function attr(node: Record<string, unknown>, name: string): string | undefined {
  const value = node[`@_${name}`];
  return typeof value === 'string' ? value : undefined;
}

function pathLike(value: string | undefined): string | undefined {
  return value && looksLikeFilePath(value) ? value : undefined;
}

function fileOf(file: string | undefined, rootDir?: string): { file?: string } {
  const normalized = normalizeFile(file, rootDir);
  return normalized ? { file: normalized } : {};
}
