/** The variable naming the folder where fixcycle's mocha reporter writes each test's coverage (localization). */
export const TEST_COVERAGE_VAR = 'FIXCYCLE_TEST_COVERAGE';

/**
 * Part of fixcycle's mocha reporter (mocha-reporter.ts): when `FIXCYCLE_TEST_COVERAGE` names a folder, each
 * test's coverage goes there, one V8 coverage file per test (`<pid>-<n>/coverage.json`, with the test's title,
 * file and state beside the scripts), for localization to make one spectrum unit per test out of one run.
 * V8's `Profiler.takePreciseCoverage` returns the counts since the last take and resets them: taken when a
 * test begins (before its beforeEach hooks) the counts of the hooks between tests are dropped, taken when it
 * ends they are the test's own. A take costs a few milliseconds on a large suite (every function V8 counted,
 * through the inspector protocol), so the one when a test begins is skipped when no hook ran since the last. The reporter does it rather than root hooks (mocha 8+), since its runner
 * events are the same from mocha 5 to 11 and the reporter is loaded before the test files are. Functions
 * compiled before precise coverage starts report whole-function counts only: fixcycle sets
 * NODE_V8_COVERAGE as well, which starts it with the process. A take lists only the functions that ran, so
 * each script is given a first range of count 0 over the whole file: lines no function of the test ran are
 * not covered (v8-to-istanbul counts a line no range names as run).
 */
export const MOCHA_TEST_COVERAGE_SOURCE = `
const testCoverage = (function () {
  const dir = process.env.${TEST_COVERAGE_VAR};
  if (!dir) return null;
  let session;
  try {
    session = new (require('node:inspector').Session)();
    session.connect();
    session.post('Profiler.enable');
    session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
  } catch (_) {
    return null;
  }
  const notRun = { functionName: '', ranges: [{ startOffset: 0, endOffset: Number.MAX_SAFE_INTEGER, count: 0 }], isBlockCoverage: true };
  let seq = 0;
  // Code ran since the last take that is no test's: a hook, or the files loading before the first test.
  let between = true;
  function take() {
    let taken = null;
    session.post('Profiler.takePreciseCoverage', (err, res) => {
      if (!err && res) taken = res.result;
    });
    return taken;
  }
  return {
    hook() {
      between = true;
    },
    begin() {
      if (between) take();
      between = false;
    },
    end(test, failed) {
      const result = take();
      if (!result) return;
      const own = result
        .filter((s) => s.url.startsWith('file:') && !s.url.includes('/node_modules/'))
        .map((s) => ({ url: s.url, functions: [notRun].concat(s.functions) }));
      const state = failed ? 'failed' : test.pending ? 'pending' : test.state || 'passed';
      const out = path.join(dir, process.pid + '-' + seq++);
      try {
        fs.mkdirSync(out, { recursive: true });
        const about = { title: test.title, fullTitle: call(test.fullTitle, test), file: test.file, state };
        fs.writeFileSync(path.join(out, 'coverage.json'), JSON.stringify({ test: about, result: own }));
      } catch (_) {}
    },
  };
})();
`;
