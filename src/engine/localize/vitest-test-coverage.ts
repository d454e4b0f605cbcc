import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TEST_COVERAGE_VAR } from '../runners/commands/mocha-test-coverage.js';
import type { Invocation } from '../runners/invocation.js';

/** The variable naming the user's own `vitest` module, which the setup file takes its hooks from. */
const VITEST_ENTRY_VAR = 'FIXCYCLE_VITEST_ENTRY';

/**
 * A setup file fixcycle adds to the user's vitest config so each vitest test writes its own coverage, as
 * fixcycle's mocha reporter does (mocha-test-coverage.ts): one V8 coverage file per test in the folder
 * `FIXCYCLE_TEST_COVERAGE` names, for `perTestUnits`. vitest loads its runner as ES modules in its workers, so
 * a preload cannot hook it as it hooks jest; a setup file runs in the worker before each test file, and its
 * `beforeEach` (first, so before the user's) and `afterEach` (last: vitest runs them in reverse) frame each
 * test. It takes its hooks from the user's own vitest (its file outside their tree cannot resolve `vitest`):
 * the same module the test files get. Precise coverage starts in the first setup file of the worker, before
 * any test file loads the code under test; the session lives on the worker's global, so a worker that runs
 * several files (`isolate: false`) keeps one. vitest runs its transform of each file (imports rewritten, the
 * module wrapped in a function), so the takes name the text V8 ran (`source`, once per script and process),
 * read back through the inline source map the transform left (v8-script-lines.ts). A failing test's coverage
 * ends where it failed: vitest then formats the error, reading its getters (the project's own error class),
 * which no test called.
 */
const VITEST_TEST_COVERAGE_SOURCE = `import inspector from 'node:inspector';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
const dir = process.env.${TEST_COVERAGE_VAR};
const entry = process.env.${VITEST_ENTRY_VAR};
const self = import.meta.url;
const notRun = { functionName: '', ranges: [{ startOffset: 0, endOffset: Number.MAX_SAFE_INTEGER, count: 0 }], isBlockCoverage: true };
function started() {
  const known = globalThis.__fixcycleTestCoverage;
  if (known !== undefined) return known;
  let state = null;
  try {
    const session = new inspector.Session();
    session.connect();
    session.post('Debugger.enable');
    session.post('Profiler.enable');
    session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
    state = { session, sources: new Map(), seq: 0, atFailure: null };
  } catch (_) {}
  globalThis.__fixcycleTestCoverage = state;
  return state;
}
function own(url) {
  return url.startsWith('file:') && !url.includes('/node_modules/') && url !== self;
}
function sourceOf(state, scriptId) {
  if (state.sources.has(scriptId)) return state.sources.get(scriptId);
  let file = null;
  state.session.post('Debugger.getScriptSource', { scriptId }, (err, res) => {
    if (err || !res) return;
    file = path.join(dir, 'sources', process.pid + '-' + scriptId + '.js');
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, res.scriptSource);
    } catch (_) {
      file = null;
    }
  });
  state.sources.set(scriptId, file);
  return file;
}
function take(state) {
  let taken = [];
  state.session.post('Profiler.takePreciseCoverage', (err, res) => {
    if (!err && res) taken = res.result;
  });
  return taken.filter((s) => own(s.url));
}
function titles(task) {
  const names = [task.name];
  for (let at = task.suite; at && at !== task.file && !at.filepath; at = at.suite) names.unshift(at.name);
  return names;
}
// vitest formats a failure (its error serialized, every getter read) before the afterEach hooks run: a take when
// the test's state turns to "fail" is the test's own, what runs after it the runner's.
function watchFailure(state, task) {
  const result = task.result;
  state.atFailure = null;
  if (!result || typeof result !== 'object') return;
  let value = result.state;
  try {
    Object.defineProperty(result, 'state', {
      configurable: true,
      enumerable: true,
      get() {
        return value;
      },
      set(next) {
        if (next === 'fail' && state.atFailure === null) state.atFailure = take(state);
        value = next;
      },
    });
  } catch (_) {}
}
function unwatch(task) {
  const result = task.result;
  if (!result || typeof result !== 'object') return;
  try {
    Object.defineProperty(result, 'state', { value: result.state, writable: true, enumerable: true, configurable: true });
  } catch (_) {}
}
function done(state, task) {
  const last = take(state);
  unwatch(task);
  const scripts = (state.atFailure || last).flatMap((s) => {
    const source = sourceOf(state, s.scriptId);
    return source ? [{ url: s.url, source, functions: [notRun].concat(s.functions) }] : [];
  });
  const result = task.result || {};
  const state_ = result.state === 'fail' || (result.errors && result.errors.length > 0) ? 'failed' : 'passed';
  const out = path.join(dir, process.pid + '-' + String(state.seq++).padStart(6, '0'));
  try {
    fs.mkdirSync(out, { recursive: true });
    const file = task.file && task.file.filepath;
    const about = { title: task.name, fullTitle: titles(task).join(' > '), state: state_, file };
    fs.writeFileSync(path.join(out, 'coverage.json'), JSON.stringify({ test: about, result: scripts }));
  } catch (_) {}
}
if (dir && entry) {
  const state = started();
  if (state) {
    const { beforeEach, afterEach } = await import(entry);
    beforeEach((context) => {
      take(state);
      watchFailure(state, context.task);
    });
    afterEach((context) => {
      done(state, context.task);
    });
  }
}
`;

/** The names vitest looks for, from the run's folder up, when no `--config` is given. */
const CONFIG_NAMES = ['vitest.config', 'vite.config'].flatMap((name) =>
  ['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs'].map((ext) => name + ext),
);
/** Files that make vitest run projects of their own, whose configs would not get the setup file. */
const WORKSPACE_NAMES = ['vitest.workspace', 'vitest.projects'].flatMap((name) =>
  ['.ts', '.mts', '.js', '.mjs', '.json'].map((ext) => name + ext),
);

function findUp(from: string, names: readonly string[]): string | null {
  for (let at = from; ; at = dirname(at)) {
    const found = names.map((n) => join(at, n)).find((p) => existsSync(p));
    if (found) return found;
    if (dirname(at) === at) return null;
  }
}

/** The `--config`/`-c` value of a vitest command line and where it sits, or null. */
function configOption(argv: readonly string[]): { value: string; at: number; count: number } | null {
  for (const [at, arg] of argv.entries()) {
    if ((arg === '--config' || arg === '-c') && argv[at + 1]) return { value: argv[at + 1]!, at, count: 2 };
    const joined = /^(?:--config|-c)=(.+)$/.exec(arg);
    if (joined) return { value: joined[1]!, at, count: 1 };
  }
  return null;
}

/** The file URL of the `vitest` module the project's tests import (its `import` export), or null. */
function vitestEntry(cwd: string): string | null {
  const manifest = findUp(cwd, [join('node_modules', 'vitest', 'package.json')]);
  if (!manifest) return null;
  try {
    const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { exports?: Record<string, unknown> };
    const dot = pkg.exports?.['.'] as { import?: string | { default?: string } } | undefined;
    const target = typeof dot?.import === 'string' ? dot.import : dot?.import?.default;
    if (!target) return null;
    return pathToFileURL(realpathSync(join(dirname(manifest), target))).href;
  } catch {
    return null;
  }
}

/**
 * The invocation that runs the user's vitest command with fixcycle's setup file: a config written into `dir`
 * (outside the user's tree) that imports theirs (their `--config`, else the file vitest would find) and puts
 * the setup file first among its setup files, given as `--config`; vitest's own coverage off (its V8 provider
 * would start and stop the same profiler). Null when it cannot be done: no vitest installed where the command
 * runs, or a workspace of projects (each project's config would need the setup file).
 */
export function withVitestTestCoverage(dir: string, root: string, inv: Invocation, tests: string): Invocation | null {
  const cwd = inv.cwd ? resolve(root, inv.cwd) : root;
  const entry = vitestEntry(cwd);
  if (!entry || findUp(cwd, WORKSPACE_NAMES)) return null;
  const given = configOption(inv.argv);
  const theirs = given
    ? isAbsolute(given.value)
      ? given.value
      : resolve(cwd, given.value)
    : findUp(cwd, CONFIG_NAMES);
  const setup = join(dir, 'vitest-test-coverage.mjs');
  const config = join(dir, 'vitest.config.mjs');
  writeFileSync(setup, VITEST_TEST_COVERAGE_SOURCE);
  writeFileSync(config, generatedConfig(theirs, setup));
  const argv = given ? inv.argv.filter((_, i) => i < given.at || i >= given.at + given.count) : inv.argv;
  return {
    ...inv,
    argv: [...argv, '--config', config, '--coverage.enabled=false'],
    env: { ...inv.env, [TEST_COVERAGE_VAR]: tests, [VITEST_ENTRY_VAR]: entry },
  };
}

/** A config that is the user's (an object, a promise or a function of vite's env) with the setup file first. */
function generatedConfig(theirs: string | null, setup: string): string {
  return [
    theirs ? `import * as theirs from ${JSON.stringify(theirs)};` : 'const theirs = { default: {} };',
    `const setup = ${JSON.stringify(setup)};`,
    'const withSetup = (config) => {',
    '  const test = (config && config.test) || {};',
    '  const own = test.setupFiles === undefined ? [] : [].concat(test.setupFiles);',
    '  return { ...config, test: { ...test, setupFiles: [setup, ...own] } };',
    '};',
    'const config = theirs.default;',
    "export default typeof config === 'function'",
    '  ? async (env) => withSetup(await config(env))',
    '  : Promise.resolve(config).then(withSetup);',
    '',
  ].join('\n');
}
