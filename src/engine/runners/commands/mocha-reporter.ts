import { MOCHA_TEST_COVERAGE_SOURCE } from './mocha-test-coverage.js';

/** The report file the mocha reporter writes, beside itself in the run's report folder. */
export const MOCHA_REPORT_NAME = 'mocha.json';

/**
 * A mocha reporter file fixcycle writes for each run: mocha takes one reporter, and fixcycle needs two, the
 * spec reporter for the person watching and a JSON report for itself. mocha's own JSON reporter writes to a
 * file only since mocha 9 (`--reporter-option output=`); before, it prints to stdout, into the spec output.
 * So this reporter writes mocha's JSON report shape itself, from the runner's events, which are the same from
 * mocha 5 to 11, to `mocha.json` beside itself: no reporter option, which mocha 5 spells differently.
 * It loads the mocha that is running it, found from the running binary, else from the project.
 */
export const MOCHA_REPORTER_SOURCE = `'use strict';
const fs = require('node:fs');
const path = require('node:path');
const from = [process.argv[1] ? path.dirname(process.argv[1]) : process.cwd(), process.cwd()];
const mocha = require(require.resolve('mocha', { paths: from }));
const OUTPUT = process.env.FIXCYCLE_MOCHA_REPORT || path.join(__dirname, ${JSON.stringify(MOCHA_REPORT_NAME)});

function call(value, self) {
  return typeof value === 'function' ? value.call(self) : value;
}
${MOCHA_TEST_COVERAGE_SOURCE}
function errorFields(err) {
  if (!err || typeof err !== 'object') return err === undefined ? {} : { message: String(err) };
  const out = {};
  for (const key of ['name', 'message', 'stack', 'code', 'operator', 'generatedMessage', 'showDiff', 'uncaught']) {
    if (err[key] !== undefined) out[key] = err[key];
  }
  for (const key of ['actual', 'expected']) {
    if (!(key in err)) continue;
    try {
      out[key] = typeof err[key] === 'string' ? err[key] : require('node:util').inspect(err[key], { depth: 6, breakLength: 100 });
    } catch (_) {
      out[key] = String(err[key]);
    }
  }
  return out;
}

function clean(test, err) {
  return {
    title: test.title,
    fullTitle: call(test.fullTitle, test),
    file: test.file,
    duration: test.duration,
    currentRetry: call(test.currentRetry, test),
    err: err ? errorFields(err) : {},
  };
}

function FixcycleReporter(runner, options) {
  new mocha.reporters.Spec(runner, options);
  const tests = [];
  const passes = [];
  const failures = [];
  const pending = [];
  // Keyed by title, not by object: in parallel mode (mocha 8+) each event carries its own copy of the test.
  const failed = new Map();
  const key = (test) => (test.file || '') + '\\u0000' + call(test.fullTitle, test);
  runner.on('pass', (test) => passes.push(clean(test)));
  runner.on('pending', (test) => pending.push(clean(test)));
  runner.on('fail', (test, err) => {
    const entry = clean(test, err);
    failures.push(entry);
    failed.set(key(test), entry);
  });
  if (testCoverage) {
    runner.on('hook', () => testCoverage.hook());
    runner.on('test', () => testCoverage.begin());
  }
  runner.on('test end', (test) => {
    tests.push(failed.get(key(test)) || clean(test));
    if (testCoverage) testCoverage.end(test, failed.has(key(test)));
  });
  runner.once('end', () => {
    const stats = Object.assign({}, runner.stats || {}, { tests: tests.length, passes: passes.length, pending: pending.length, failures: failures.length });
    fs.writeFileSync(OUTPUT, JSON.stringify({ stats, tests, pending, failures, passes }, null, 2));
  });
}
module.exports = FixcycleReporter;
`;
