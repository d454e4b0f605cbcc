// Times parsing of 50,000-test reports (jest JSON, JUnit XML, TAP) generated in memory.
// Targets (issue 3): parse_json_50k_s < 0.2, parse_junit_50k_s < 0.6, parse_tap_50k_s < 2.
import { parseReport } from '../dist/engine/report/index.js';

const TESTS = 50_000;
const PER_FILE = 50;
// Every 100th test fails, every 50th is skipped: enough failures to exercise message and stack handling.
const statusOf = (i) => (i % 100 === 7 ? 'failed' : i % 50 === 3 ? 'skipped' : 'passed');
const STACK =
  'Error: expected 6 to be 7\n    at Object.<anonymous> (/repo/test/file.test.js:12:5)\n    at processTicksAndRejections (node:internal/process/task_queues:95:5)';

function jestJson() {
  const testResults = [];
  for (let f = 0; f < TESTS / PER_FILE; f += 1) {
    const assertionResults = [];
    for (let t = 0; t < PER_FILE; t += 1) {
      const i = f * PER_FILE + t;
      const status = statusOf(i);
      assertionResults.push({
        ancestorTitles: ['suite ' + (t % 5), 'nested'],
        title: `test ${i} does something ✓`,
        fullName: `suite ${t % 5} nested test ${i} does something ✓`,
        status: status === 'skipped' ? 'pending' : status,
        duration: 3,
        failureMessages: status === 'failed' ? [STACK] : [],
        invocations: 1,
      });
    }
    testResults.push({ name: `/repo/test/file${f}.test.js`, status: 'passed', message: '', assertionResults });
  }
  return JSON.stringify({
    numTotalTests: TESTS,
    numRuntimeErrorTestSuites: 0,
    openHandles: [],
    testResults,
    wasInterrupted: false,
  });
}

function junit() {
  const parts = ['<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="bench" tests="50000">\n'];
  for (let f = 0; f < TESTS / PER_FILE; f += 1) {
    parts.push(`  <testsuite name="test/file${f}.test.js" file="test/file${f}.test.js" tests="${PER_FILE}">\n`);
    for (let t = 0; t < PER_FILE; t += 1) {
      const i = f * PER_FILE + t;
      const status = statusOf(i);
      const open = `    <testcase classname="test/file${f}.test.js" name="suite &gt; test ${i} does something ✓" time="0.003"`;
      if (status === 'passed') parts.push(`${open}/>\n`);
      else if (status === 'skipped') parts.push(`${open}><skipped/></testcase>\n`);
      else
        parts.push(
          `${open}><failure message="expected 6 to be 7" type="AssertionError">${STACK.replace(/</g, '&lt;')}</failure></testcase>\n`,
        );
    }
    parts.push('  </testsuite>\n');
  }
  parts.push('</testsuites>\n');
  return parts.join('');
}

// node:test's shape: one subtest per suite, a YAML block with the duration after every test point.
function tap() {
  const lines = ['TAP version 13'];
  for (let f = 0; f < TESTS / PER_FILE; f += 1) {
    lines.push(`# Subtest: suite ${f}`);
    for (let t = 0; t < PER_FILE; t += 1) {
      const i = f * PER_FILE + t;
      const status = statusOf(i);
      const name = `test ${i} does something ✓`;
      lines.push(`    # Subtest: ${name}`);
      if (status === 'passed') lines.push(`    ok ${t + 1} - ${name}`);
      else if (status === 'skipped') lines.push(`    ok ${t + 1} - ${name} # SKIP not yet`);
      else lines.push(`    not ok ${t + 1} - ${name}`);
      lines.push('      ---', '      duration_ms: 0.31');
      if (status === 'failed')
        lines.push("      error: 'expected 6 to be 7'", "      location: '/repo/test/file.test.js:12:5'");
      lines.push('      ...');
    }
    lines.push(
      `    1..${PER_FILE}`,
      `${f % 2 === 0 ? 'not ok' : 'ok'} ${f + 1} - suite ${f}`,
      '  ---',
      '  duration_ms: 15.2',
      "  type: 'suite'",
      '  ...',
    );
  }
  lines.push(`1..${TESTS / PER_FILE}`, `# tests ${TESTS}`);
  return lines.join('\n') + '\n';
}

function time(text, format) {
  // One warm-up run, then the best of three: the machine is shared, the minimum is the least noisy figure.
  check(parseReport(text, format), format);
  let best = Infinity;
  for (let run = 0; run < 3; run += 1) {
    const started = process.hrtime.bigint();
    const outcome = parseReport(text, format);
    best = Math.min(best, Number(process.hrtime.bigint() - started) / 1e9);
    check(outcome, format);
  }
  return best;
}

function check(outcome, format) {
  if (!outcome.ok) throw new Error(`${format}: ${outcome.error}`);
  if (outcome.result.tests.length !== TESTS)
    throw new Error(`${format}: read ${outcome.result.tests.length} tests, expected ${TESTS}`);
}

export default async function bench() {
  return {
    parse_json_50k_s: time(jestJson(), 'jest-json'),
    parse_junit_50k_s: time(junit(), 'junit'),
    parse_tap_50k_s: time(tap(), 'tap'),
  };
}
