import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PRELOAD_COVERAGE_SESSION } from './preload-coverage-session.js';

/**
 * A file node preloads (`--require`) into ava's workers so each ava test writes its own coverage, as the tape
 * preload does (tape-test-coverage.ts): one V8 coverage file per test in the folder `FIXCYCLE_TEST_COVERAGE`
 * names, for `perTestUnits`. ava has no hook fixcycle can add and its runner is an ES module, but the chain a
 * test file imports (`test`) is handed over through a CommonJS module, `lib/worker/state.cjs` (`refs.runnerChain`):
 * the file catches that module's load and gives the test files a chain whose test implementations take V8's
 * precise coverage when they start (what ran before, ava and the `beforeEach` hooks, is no test's) and when
 * they end, their promise settled. The takes are only a test's own when one test runs at a time: the run gets
 * `--serial`. A test failed when it threw or an assertion failed (`t.passed`). Precise coverage starts with the
 * worker (a function compiled before the session starts would report whole-function counts only).
 *
 * Each assertion of a failing test (by its title) takes too: a test that checks a table of cases
 * (`t.is(camelCase('foo-bar'), 'fooBar')`, then the next) gives a unit per case, what ran since the assertion
 * before it, failed when the assertion failed. A passing test stays one unit: a take costs a few milliseconds (V8
 * reports every function of the worker), too many for every check of a suite. ava 6
 * ends a test at its first failed assertion; here the assertion's failure is recorded as ava records it and the
 * test goes on to its next case, as ava 5 did. Whether the cases are units of their own is `perTestUnits`'s to
 * say (a failing case that ran no code of its own checks what an earlier step computed).
 */
const avaTestCoverageSource = (failing: readonly string[]): string => `${PRELOAD_COVERAGE_SESSION}
const failing = new Set(${JSON.stringify(failing)});
const self = require('node:url').pathToFileURL(__filename).href;
function take() {
  let taken = [];
  session.post('Profiler.takePreciseCoverage', (err, res) => {
    if (!err && res) taken = res.result;
  });
  return taken.filter((s) => s.url.startsWith('file:') && !s.url.includes('/node_modules/') && s.url !== self);
}
const worker = (() => { try { return require('node:worker_threads').threadId; } catch (_) { return 0; } })();
let seq = 0;
function write(title, failed, assertion) {
  const scripts = take().map((s) => ({ url: s.url, functions: [notRun].concat(s.functions) }));
  const out = path.join(dir, process.pid + '-' + worker + '-' + String(seq++).padStart(6, '0'));
  try {
    fs.mkdirSync(out, { recursive: true });
    const about = { title, fullTitle: title, state: failed ? 'failed' : 'passed' };
    if (assertion !== undefined) about.assertion = assertion;
    fs.writeFileSync(path.join(out, 'coverage.json'), JSON.stringify({ test: about, result: scripts }));
  } catch (_) {}
}
// The assertions that return at once (not snapshot: it finds its place by the order of its calls from ava's own).
const CHECKS = new Set(['assert', 'deepEqual', 'false', 'falsy', 'is', 'like', 'not', 'notDeepEqual', 'notRegex', 'notThrows', 'regex', 'throws', 'true', 'truthy']);
function checked(t, onCheck) {
  return new Proxy(t, {
    get(target, key) {
      const value = Reflect.get(target, key);
      if (typeof value !== 'function') return value;
      if (!CHECKS.has(key)) return value.bind(target);
      return function () {
        let failed = false;
        let result;
        try {
          result = value.apply(target, arguments);
          failed = result === false;
        } catch (_) {
          failed = true;
        }
        onCheck(failed);
        return result;
      };
    },
    set(target, key, value) {
      return Reflect.set(target, key, value);
    },
  });
}
function measured(exec) {
  if (typeof exec !== 'function') return exec;
  return function (t) {
    take();
    let title = '';
    try { title = t.title; } catch (_) {}
    let checks = 0;
    const done = (threw) => {
      let passed = false;
      try { passed = !threw && t.passed !== false; } catch (_) {}
      if (checks === 0) write(title, !passed);
      else write(title, threw, 'rest');
    };
    const args = Array.prototype.slice.call(arguments);
    if (failing.has(title)) args[0] = checked(t, (failed) => write(title, failed, ++checks));
    let result;
    try {
      result = exec.apply(this, args);
    } catch (error) {
      done(true);
      throw error;
    }
    if (result && typeof result.then === 'function')
      return result.then((value) => { done(false); return value; }, (error) => { done(true); throw error; });
    done(false);
    return result;
  };
}
// A macro (\`test.macro\`) is an object whose \`exec\` runs the test.
const implementation = (impl) =>
  impl && typeof impl === 'object' && typeof impl.exec === 'function' ? { exec: measured(impl.exec), title: impl.title } : measured(impl);
const NOT_TESTS = new Set(['before', 'after', 'beforeEach', 'afterEach', 'macro', 'todo', 'meta']);
function chain(fn, tests) {
  return new Proxy(fn, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? chain(value, tests && !NOT_TESTS.has(key)) : value;
    },
    apply(target, self, args) {
      if (!tests) return Reflect.apply(target, self, args);
      const at = typeof args[0] === 'string' ? 1 : 0;
      return Reflect.apply(target, self, args.map((a, i) => (i === at ? implementation(a) : a)));
    },
  });
}
if (session) {
  const load = Module._load;
  Module._load = function (request) {
    const loaded = load.apply(this, arguments);
    const refs = loaded && loaded.refs;
    if (/state\\.cjs$/.test(request) && refs && 'runnerChain' in refs && loaded.flags && !refs.fixcycle) {
      let current = refs.runnerChain;
      Object.defineProperty(refs, 'runnerChain', {
        get: () => current,
        set: (value) => { current = typeof value === 'function' ? chain(value, true) : value; },
        enumerable: true,
        configurable: true,
      });
      refs.fixcycle = true;
    }
    return loaded;
  };
}
`;

/**
 * Writes the preload file into `dir`, once before any worker starts, and returns its path. `failing`: the titles
 * of the failing tests, whose checks take apart.
 */
export function writeAvaTestCoverage(dir: string, failing: readonly string[]): string {
  const file = join(dir, 'ava-test-coverage.cjs');
  writeFileSync(file, avaTestCoverageSource(failing));
  return file;
}
