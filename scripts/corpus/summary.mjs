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
    // node-tap's unit is the test: each test file's top-level points (its `t.test` subtests and any assertion
    // made outside one), the points its plan `1..N` counts. Read from the TAP stream (`--reporter=tap`): every
    // file is a `# Subtest: <file>` of the root, its tests the points indented once below it.
    const points = all(text, /^ {4}(ok|not ok) \d+(?: - [^#\n]*)?(#\s*(?:SKIP|TODO)\b)?/gim);
    if (points.length === 0) return null;
    const skipped = points.filter((m) => m[2]).length;
    const failed = points.filter((m) => !m[2] && m[1] === 'not ok').length;
    return {
      unit: "tests (each file's top-level subtests, its plan 1..N)",
      passed: points.length - skipped - failed,
      failed,
      skipped,
    };
  },
  mocha(text) {
    const passing = all(text, /^\s*(\d+) passing/gm);
    if (passing.length === 0) return null;
    return {
      unit: 'tests',
      passed: sum(passing),
      failed: sum(all(text, /^\s*(\d+) failing/gm)),
      skipped: sum(all(text, /^\s*(\d+) pending/gm)),
    };
  },
  'node-test'(text) {
    const pass = all(text, /^(?:# |ℹ )pass (\d+)/gm);
    if (pass.length === 0) return null;
    return {
      unit: 'tests',
      passed: sum(pass),
      failed: sum(all(text, /^(?:# |ℹ )fail (\d+)/gm)),
      skipped: sum(all(text, /^(?:# |ℹ )skipped (\d+)/gm)),
    };
  },
  uvu(text) {
    const total = all(text, /^\s*Total:\s+(\d+)/gm);
    if (total.length === 0) return null;
    const passed = sum(all(text, /^\s*Passed:\s+(\d+)/gm));
    return {
      unit: 'tests',
      passed,
      failed: sum(total) - passed - sum(all(text, /^\s*Skipped:\s+(\d+)/gm)),
      skipped: sum(all(text, /^\s*Skipped:\s+(\d+)/gm)),
    };
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
    // A file whose tests all skip (jmespath's compliance tests, whose data its sdist does not ship) ran them;
    // "1 error" alone is a file that did not collect, and stays unread.
    const line = all(text, /^=+ (.*\d+ (?:passed|failed|skipped|xfailed|xpassed).*) in [\d.]+s/gm).at(-1)?.[1];
    if (!line) return null;
    const take = (word) => Number(new RegExp(`(\\d+) ${word}`).exec(line)?.[1] ?? 0);
    // An xpassed test ran and passed (its xfail mark is not strict), an xfailed one is a known failure set aside:
    // fixcycle reads them so from pytest's JUnit report, and so does this count.
    return {
      unit: 'tests',
      passed: take('passed') + take('xpassed'),
      failed: take('failed') + take('errors?'),
      skipped: take('skipped') + take('xfailed'),
    };
  },
  go(text) {
    // go test prints no totals; with -json every test and subtest ends with one pass/fail/skip action. A test
    // with subtests passes or fails with them: counting it too would count each failing case twice, so the
    // unit is the test that has no subtests of its own.
    const ended = new Map();
    for (const line of text.split('\n')) {
      let e;
      try {
        e = JSON.parse(line);
      } catch {
        continue;
      }
      if (e && e.Test && ['pass', 'fail', 'skip'].includes(e.Action))
        ended.set(`${e.Package}\u0000${e.Test}`, e.Action);
    }
    if (ended.size === 0) return null;
    const parents = new Set(
      [...ended.keys()].flatMap((key) => {
        const [pkg, name] = key.split('\u0000');
        const names = [];
        for (let at = name.lastIndexOf('/'); at > 0; at = name.lastIndexOf('/', at - 1))
          names.push(`${pkg}\u0000${name.slice(0, at)}`);
        return names;
      }),
    );
    const leaves = [...ended].filter(([key]) => !parents.has(key)).map(([, action]) => action);
    const n = (a) => leaves.filter((x) => x === a).length;
    return {
      unit: 'tests and subtests without subtests of their own (go test -json)',
      passed: n('pass'),
      failed: n('fail'),
      skipped: n('skip'),
    };
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
  if (entry.summaryTest) return entry.summaryTest;
  if (entry.runner === 'go') return entry.test.replace(/^go test/, 'go test -json');
  return entry.test;
}
