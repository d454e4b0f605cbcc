import type { RunError, TestCase, TestStatus } from '../types.js';
import { splitFailureText } from './failure-text.js';
import { asArray, asRecord, asString } from './outcome.js';
import { looksLikeFilePath, makeTestId, normalizeFile } from './test-id.js';

interface Scope {
  /** Names of the enclosing `<testsuite>` elements. */
  path: string[];
  /** The nearest enclosing suite's `file` attribute. */
  file?: string;
  rootDir?: string;
}

/** Walks parsed `<testsuite>` trees into tests and errors outside tests. */
export function readSuites(containers: unknown[], rootDir?: string): { tests: TestCase[]; errors: RunError[] } {
  const out = { tests: [] as TestCase[], errors: [] as RunError[] };
  for (const container of containers) readContainer(asRecord(container), { path: [], rootDir }, out);
  return out;
}

function readContainer(node: Record<string, unknown> | undefined, scope: Scope, out: { tests: TestCase[]; errors: RunError[] }): void {
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
  const inner: Scope = { ...scope, path: name ? [...scope.path, name] : scope.path, ...(file ? { file } : {}) };
  const before = out.tests.length + out.errors.length;
  readContainer(suite, inner, out);
  // <error>/<failure> right inside a suite: the suite failed outside its tests (pytest collection, a crashed binary).
  const problems = [...asArray(suite.error), ...asArray(suite.failure)];
  for (const problem of problems) {
    out.errors.push({ message: problemText(problem).message, ...fileOf(file ?? name, scope.rootDir) });
  }
  const declared = Number(attr(suite, 'errors') ?? 0);
  if (problems.length === 0 && out.tests.length + out.errors.length === before && declared > 0) {
    out.errors.push({ message: `suite "${name ?? '(unnamed)'}" reports ${declared} error(s) and no test cases`, ...fileOf(file ?? name, scope.rootDir) });
  }
}

function readTestcase(testcase: Record<string, unknown>, scope: Scope, out: { tests: TestCase[]; errors: RunError[] }): void {
  const name = attr(testcase, 'name') ?? '(unnamed test)';
  const classname = attr(testcase, 'classname');
  const problems = [...asArray(testcase.failure), ...asArray(testcase.error)];
  const texts = problems.map(problemText);
  if (problems.length > 0 && isOutsideTests(name, texts)) {
    out.errors.push({ message: messageOutsideTests(texts), ...fileOf(fileOutsideTests(name, texts), scope.rootDir) });
    return;
  }
  const rawFile = attr(testcase, 'file') ?? scope.file ?? pathLike(classname) ?? pathLike(scope.path[0]);
  const file = normalizeFile(rawFile, scope.rootDir);
  const suitePath = scope.path.filter((s, i) => s !== rawFile && s !== classname && !(i === 0 && WRAPPER_SUITES.has(s)));
  const locator = file ?? locatorOf(classname);
  const status: TestStatus = problems.length > 0 ? 'failed' : testcase.skipped !== undefined ? 'skipped' : 'passed';
  const test: TestCase = { id: makeTestId(locator, [...suitePath, name]), name, status };
  if (file) test.file = file;
  const seconds = Number.parseFloat(attr(testcase, 'time') ?? '');
  if (Number.isFinite(seconds)) test.durationMs = Math.round(seconds * 1000);
  // Retried tests (nextest, surefire): earlier failed attempts as <flakyFailure> (passed at last) or <rerunFailure>.
  const retries = asArray(testcase.flakyFailure).length + asArray(testcase.rerunFailure).length + asArray(testcase.flakyError).length + asArray(testcase.rerunError).length;
  if (retries > 0) test.retries = retries;
  if (status === 'failed') {
    const output = bareFailure(texts) ? outputText(testcase) : undefined;
    test.message = output?.message ?? texts.map((t) => t.message).join('\n');
    const stack = output?.stack ?? texts.map((t) => t.stack).filter(Boolean).join('\n\n');
    if (stack) test.stack = stack;
  }
  out.tests.push(test);
}

/** A failure with nothing but a type (libtest writes `<failure type="assert"/>` and the panic to system-out). */
function bareFailure(texts: { message: string; stack?: string }[]): boolean {
  return texts.every((t) => t.stack === undefined);
}

/** The panic or error a test printed, for failures that carry no message of their own. */
function outputText(testcase: Record<string, unknown>): { message: string; stack: string } | undefined {
  const raw = testcase['system-out'];
  const parts = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
  const text = parts.map((o) => (typeof o === 'string' ? o : asString(asRecord(o)?.['#text']) ?? '')).join('\n').trim();
  if (!text) return undefined;
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const end = lines.findIndex((l) => /^stack backtrace:|^note: run with/.test(l));
  return { message: lines.slice(0, end > 0 ? Math.min(end, 4) : 4).join('\n'), stack: text };
}

/** A test case that stands for a whole file which failed before its tests ran. */
function isOutsideTests(name: string, texts: { message: string }[]): boolean {
  return looksLikeFilePath(name) || texts.some((t) => t.message === 'collection failure');
}

function messageOutsideTests(texts: { message: string; stack?: string }[]): string {
  return texts
    .map((t) => {
      // pytest's cause is the last `E   ` line of the traceback ("E   ModuleNotFoundError: No module named 'x'").
      const cause = t.stack?.split('\n').filter((l) => /^E\s/.test(l)).pop()?.replace(/^E\s+/, '');
      if (cause) return `${t.message}: ${cause}`;
      if (t.message === 'test failed') return "test file failed (node:test's JUnit keeps no cause: see its TAP or spec output)";
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
