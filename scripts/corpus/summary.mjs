// The counts a runner prints in its own closing summary, read from the bare test command's output.
// Used to record a project's expected counts (then checked by eye and written to projects.json) and to
// show, next to the recorded ones, what this machine's run printed. Where a command runs several suites
// (`a && b`, cargo's targets), the counts of every summary are added up.

const sum = (matches, group = 1) => matches.reduce((n, m) => n + Number(m[group]), 0);
const all = (text, re) => [...text.matchAll(re)];

const READERS = {
  tape(text) {
    const pass = all(text, /^# pass\s+(\d+)/gm);
    const fail = all(text, /^# fail\s+(\d+)/gm);
    if (pass.length === 0 && fail.length === 0) return null;
    return { unit: 'assertions', passed: sum(pass), failed: sum(fail) };
  },
  tap(text) {
    // tap 12-16: "# failed 1 of 118 tests" / "# 118 tests passed"... 16 prints the counts per file then totals;
    // tap 18+: "# { total: 5, pass: 4, fail: 1 }" in some reporters. Read what is there.
    const totals = /# \{ total: (\d+), pass: (\d+)(?:, fail: (\d+))?/.exec(text);
    if (totals) return { unit: 'subtests', passed: Number(totals[2]), failed: Number(totals[3] ?? 0) };
    const failedOf = /# failed (\d+) of (\d+) tests?/.exec(text);
    if (failedOf) return { unit: 'subtests', passed: Number(failedOf[2]) - Number(failedOf[1]), failed: Number(failedOf[1]) };
    const passedOnly = /^# (\d+) tests? passed/m.exec(text);
    if (passedOnly) return { unit: 'subtests', passed: Number(passedOnly[1]), failed: 0 };
    const asserts = /^\s*(\d+) passing \(/m.exec(text);
    if (asserts) return { unit: 'subtests', passed: Number(asserts[1]), failed: Number(/^\s*(\d+) failing/m.exec(text)?.[1] ?? 0) };
    return null;
  },
  mocha(text) {
    const passing = all(text, /^\s*(\d+) passing/gm);
    if (passing.length === 0) return null;
    return { unit: 'tests', passed: sum(passing), failed: sum(all(text, /^\s*(\d+) failing/gm)), skipped: sum(all(text, /^\s*(\d+) pending/gm)) };
  },
  'node-test'(text) {
    const pass = all(text, /^(?:# |ℹ )pass (\d+)/gm);
    if (pass.length === 0) return null;
    return { unit: 'tests', passed: sum(pass), failed: sum(all(text, /^(?:# |ℹ )fail (\d+)/gm)), skipped: sum(all(text, /^(?:# |ℹ )skipped (\d+)/gm)) };
  },
  uvu(text) {
    const total = all(text, /^\s*Total:\s+(\d+)/gm);
    if (total.length === 0) return null;
    const passed = sum(all(text, /^\s*Passed:\s+(\d+)/gm));
    return { unit: 'tests', passed, failed: sum(total) - passed - sum(all(text, /^\s*Skipped:\s+(\d+)/gm)), skipped: sum(all(text, /^\s*Skipped:\s+(\d+)/gm)) };
  },
  jest(text) {
    const line = all(text, /^Tests:\s+(.*)$/gm).map((m) => m[1]);
    if (line.length === 0) return null;
    const take = (word) => line.reduce((n, l) => n + Number(new RegExp(`(\\d+) ${word}`).exec(l)?.[1] ?? 0), 0);
    return { unit: 'tests', passed: take('passed'), failed: take('failed'), skipped: take('skipped') + take('todo') };
  },
  vitest(text) {
    // eslint-disable-next-line no-control-regex
    const plain = text.replace(/\u001b\[[0-9;]*m/g, '');
    const line = /^\s*Tests\s+(.*)$/m.exec(plain)?.[1];
    if (!line) return null;
    const take = (word) => Number(new RegExp(`(\\d+) ${word}`).exec(line)?.[1] ?? 0);
    return { unit: 'tests', passed: take('passed'), failed: take('failed'), skipped: take('skipped') + take('todo') };
  },
  ava(text) {
    const passed = /(\d+) tests? passed/.exec(text);
    const failed = /(\d+) tests? failed/.exec(text);
    if (!passed && !failed) return null;
    return { unit: 'tests', passed: Number(passed?.[1] ?? 0), failed: Number(failed?.[1] ?? 0) };
  },
  pytest(text) {
    const line = all(text, /^=+ (.*\d+ (?:passed|failed).*) in [\d.]+s/gm).at(-1)?.[1];
    if (!line) return null;
    const take = (word) => Number(new RegExp(`(\\d+) ${word}`).exec(line)?.[1] ?? 0);
    return { unit: 'tests', passed: take('passed'), failed: take('failed') + take('errors?'), skipped: take('skipped') + take('xfailed') };
  },
  go(text) {
    // go test prints no totals; with -json every test and subtest ends with one pass/fail/skip action.
    const actions = text.split('\n').flatMap((l) => {
      try {
        const e = JSON.parse(l);
        return e.Test && ['pass', 'fail', 'skip'].includes(e.Action) ? [e.Action] : [];
      } catch {
        return [];
      }
    });
    if (actions.length === 0) return null;
    const n = (a) => actions.filter((x) => x === a).length;
    return { unit: 'tests and subtests (go test -json)', passed: n('pass'), failed: n('fail'), skipped: n('skip') };
  },
  cargo(text) {
    const results = all(text, /^test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored/gm);
    if (results.length === 0) return null;
    return { unit: 'tests, every target', passed: sum(results, 1), failed: sum(results, 2), skipped: sum(results, 3) };
  },
};

/** The runner's own counts from its output, or null when no summary line is there. */
export function readSummary(runner, text) {
  const reader = READERS[runner];
  return reader ? reader(text) : null;
}

/** The command that prints the runner's countable summary, where the plain test command prints none. */
export function summaryCommand(entry) {
  if (entry.runner === 'go') return entry.test.replace(/^go test/, 'go test -json');
  return entry.test;
}
