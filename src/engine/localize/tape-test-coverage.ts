import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PRELOAD_COVERAGE_SESSION } from './preload-coverage-session.js';

/**
 * A file node preloads (`--require`) into tape's processes so each tape test writes its own coverage, as
 * fixcycle's mocha reporter does (mocha-test-coverage.ts): one V8 coverage file per test in the folder
 * `FIXCYCLE_TEST_COVERAGE` names, for `perTestUnits`. tape has no hooks and no reporter fixcycle can add, so
 * the file wraps `Test.prototype.run` when tape's `lib/test.js` loads (before any test exists: each test binds
 * its methods when it is made). A test's counts run from its start to its `end` event (heard before its
 * parent's listener, which ends the parent); a parent's code before its subtests start is the parent's. A
 * take costs a few milliseconds on a large suite, so none is made when a top-level test begins but the first
 * (since the last test ended only tape ran). A test failed when one of its assertions did (`_ok`); its
 * subtests report their own. Precise coverage starts with the process (NODE_V8_COVERAGE, set beside it): a
 * function compiled before the session starts would report whole-function counts only.
 */
const TAPE_TEST_COVERAGE_SOURCE = `${PRELOAD_COVERAGE_SESSION}
function take() {
  let taken = [];
  session.post('Profiler.takePreciseCoverage', (err, res) => {
    if (!err && res) taken = res.result;
  });
  return taken.filter((s) => s.url.startsWith('file:') && !s.url.includes('/node_modules/'));
}
let seq = 0;
const open = [];
// The files loaded before the first test: no test's code. Between two top-level tests only tape runs.
let loading = true;
function begin(test) {
  const parent = open[open.length - 1];
  if (parent) parent.scripts.push(...take());
  else if (loading) take();
  loading = false;
  open.push({ test, scripts: [] });
}
function end(test) {
  const at = open.findIndex((o) => o.test === test);
  if (at < 0) return;
  const [own] = open.splice(at, 1);
  const scripts = own.scripts.concat(take()).map((s) => ({ url: s.url, functions: [notRun].concat(s.functions) }));
  const state = test._skip ? 'pending' : test._ok ? 'passed' : 'failed';
  const out = path.join(dir, process.pid + '-' + String(seq++).padStart(6, '0'));
  try {
    fs.mkdirSync(out, { recursive: true });
    const about = { title: test.name, fullTitle: test.name, state };
    fs.writeFileSync(path.join(out, 'coverage.json'), JSON.stringify({ test: about, result: scripts }));
  } catch (_) {}
}
function isTapeTest(value) {
  return typeof value === 'function' && value.prototype && typeof value.prototype.run === 'function' &&
    typeof value.prototype._end === 'function' && typeof value.prototype._assert === 'function';
}
if (session) {
  const load = Module._load;
  Module._load = function (request) {
    const loaded = load.apply(this, arguments);
    if (/(^|[\\\\/])test(\\.js)?$/.test(request) && isTapeTest(loaded) && !loaded.prototype.run.fixcycle) {
      const run = loaded.prototype.run;
      const wrapped = function () {
        const test = this;
        begin(test);
        // First among the listeners: a parent's own listener ends the parent on its subtest's end.
        test.prependOnceListener('end', () => end(test));
        return run.apply(this, arguments);
      };
      wrapped.fixcycle = true;
      loaded.prototype.run = wrapped;
    }
    return loaded;
  };
}
`;

/** Runners that get the file above: a unit per test from one run. */
export const PRELOADED_TEST_COVERAGE = new Set(['tape']);

/** Writes the preload file into `dir`, once before any process starts, and returns its path. */
export function writeTapeTestCoverage(dir: string): string {
  const file = join(dir, 'tape-test-coverage.cjs');
  writeFileSync(file, TAPE_TEST_COVERAGE_SOURCE);
  return file;
}

/** NODE_OPTIONS that require the preload file, the user's own options kept. */
export const requiring = (file: string, nodeOptions: string | undefined): string =>
  [nodeOptions, `--require ${JSON.stringify(file)}`].filter(Boolean).join(' ');
