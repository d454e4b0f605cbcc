/** Counts read from a runner's human-readable closing lines, when no report file exists. */
export interface SummaryCounts {
  /** Which runner's summary line was recognised (`jest`, `vitest`, `mocha`, `node:test`, `tape`, `tap` (node-tap), `uvu`, `pytest`, `go`, `cargo`, `plain`). */
  runner: string;
  passed: number;
  failed: number;
  /** Skipped, pending, todo and expected failures together. */
  skipped: number;
  /** What the runner itself counts as errors (pytest errors, vitest unhandled errors, go packages that did not build). */
  errors: number;
  /** What the counts are of: tests, tape's assertions, or go's packages. */
  unit: 'tests' | 'assertions' | 'packages';
}

type Reader = (text: string) => SummaryCounts | null;

// Tried in order: the specific shapes first, since the plain `N passed, N failed` line also fits some of them.
const readers: Reader[] = [
  readJest,
  readVitest,
  readPytest,
  readCargo,
  readNodeOrTape,
  readNodeTap,
  readMocha,
  readUvu,
  readGo,
  readPlain,
];

/**
 * Reads the counts from a test run's plain output (node:test, tape, mocha, jest, vitest, pytest, go, cargo, or a
 * plain `N passed, N failed` line). The last summary in the output wins. Null when there is none.
 */
export function parseSummaryLine(output: string): SummaryCounts | null {
  // eslint-disable-next-line no-control-regex
  const text = output.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, '');
  for (const read of readers) {
    const counts = read(text);
    if (counts) return counts;
  }
  return null;
}

function counts(runner: string, unit: SummaryCounts['unit'] = 'tests'): SummaryCounts {
  return { runner, passed: 0, failed: 0, skipped: 0, errors: 0, unit };
}

function lastMatch(text: string, pattern: RegExp): RegExpExecArray | null {
  let last: RegExpExecArray | null = null;
  for (const match of text.matchAll(pattern)) last = match as RegExpExecArray;
  return last;
}

/** Adds `N word` pairs ("2 failed", "1 skipped") to counts. */
function addPairs(
  target: SummaryCounts,
  list: string,
  words: Record<string, keyof Omit<SummaryCounts, 'runner' | 'unit'>>,
): void {
  for (const [, n, word] of list.matchAll(/(\d+)\s+([a-z]+)/gi)) {
    const key = words[word!.toLowerCase()];
    if (key) target[key] += Number(n);
  }
}

// Tests:       2 failed, 1 skipped, 1 todo, 5 passed, 9 total
function readJest(text: string): SummaryCounts | null {
  const match = lastMatch(text, /^Tests:\s+(.*\d+ total)\s*$/gm);
  if (!match) return null;
  const result = counts('jest');
  addPairs(result, match[1]!, {
    passed: 'passed',
    failed: 'failed',
    skipped: 'skipped',
    todo: 'skipped',
    pending: 'skipped',
  });
  return result;
}

//       Tests  2 failed | 5 passed | 1 skipped | 1 todo (9)
function readVitest(text: string): SummaryCounts | null {
  const match = lastMatch(text, /^\s*Tests\s+((?:\d+ [a-z]+(?: \| )?)+)\s*\(\d+\)\s*$/gm);
  if (!match) return null;
  const result = counts('vitest');
  addPairs(result, match[1]!, { passed: 'passed', failed: 'failed', skipped: 'skipped', todo: 'skipped' });
  const errors = lastMatch(text, /^\s*Errors\s+(\d+) errors?/gm);
  if (errors) result.errors = Number(errors[1]);
  return result;
}

// ========== 2 failed, 5 passed, 1 skipped, 1 xfailed, 1 error in 0.74s ==========
function readPytest(text: string): SummaryCounts | null {
  const match = lastMatch(text, /^=+ (.*?) in [\d.]+s(?: \([^)]*\))? =+$/gm);
  if (!match || !/\d+ (passed|failed|errors?|skipped|xfailed|xpassed|deselected)|no tests ran/.test(match[1]!))
    return null;
  const result = counts('pytest');
  addPairs(result, match[1]!, {
    passed: 'passed',
    xpassed: 'passed',
    failed: 'failed',
    skipped: 'skipped',
    xfailed: 'skipped',
    error: 'errors',
    errors: 'errors',
  });
  return result;
}

// test result: FAILED. 2 passed; 2 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.08s  (one per test binary)
function readCargo(text: string): SummaryCounts | null {
  const matches = [...text.matchAll(/^test result: (?:ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored/gm)];
  if (matches.length === 0) return null;
  const result = counts('cargo');
  for (const m of matches) {
    result.passed += Number(m[1]);
    result.failed += Number(m[2]);
    result.skipped += Number(m[3]);
  }
  return result;
}

// node:test: `# pass 4` or `ℹ pass 4` with `skipped`/`todo`/`cancelled`; tape: `# pass  7` / `# fail  1` (skips and todos inside pass).
function readNodeOrTape(text: string): SummaryCounts | null {
  const lines = [
    ...text.matchAll(/^(?:#|ℹ)\s+(tests|suites|pass|fail|skip|skipped|todo|cancelled|duration_ms)\s+([\d.]+)\s*$/gm),
  ];
  const lastPass = lines.findLastIndex((l) => l[1] === 'pass');
  if (lastPass < 0) return null;
  // Only the last block counts: a watch run or a rerun prints several.
  const blockStart = lines.findLastIndex((l, i) => i <= lastPass && l[1] === 'tests');
  const block = new Map(lines.slice(blockStart >= 0 ? blockStart : lastPass).map((l) => [l[1]!, Number(l[2])]));
  const isNode = ['suites', 'skipped', 'cancelled', 'duration_ms'].some((word) => block.has(word));
  const result = counts(isNode ? 'node:test' : 'tape', isNode ? 'tests' : 'assertions');
  result.passed = block.get('pass') ?? 0;
  result.failed = (block.get('fail') ?? 0) + (block.get('cancelled') ?? 0);
  result.skipped = (block.get('skip') ?? 0) + (block.get('skipped') ?? 0) + (block.get('todo') ?? 0);
  return result;
}

// node-tap's TAP (12 to 16): one `# Subtest: <file>` a test file; each file's plan, `# failed N of M tests` and
// `# skip: N`, one level in, count its top-level subtests, the unit tap itself counts.
function readNodeTap(text: string): SummaryCounts | null {
  if (!/^# Subtest: \S/m.test(text)) return null;
  const plans = [...text.matchAll(/^ {4}1\.\.(\d+)\b/gm)];
  if (plans.length === 0) return null;
  const sum = (pattern: RegExp): number =>
    [...text.matchAll(pattern)].reduce((total, match) => total + Number(match[1]), 0);
  const result = counts('tap');
  const total = plans.reduce((n, plan) => n + Number(plan[1]), 0);
  result.failed = sum(/^ {4}# failed (\d+) (?:of \d+ )?tests?$/gm);
  result.skipped = sum(/^ {4}# skip: (\d+)$/gm) + sum(/^ {4}# todo: (\d+)$/gm);
  result.passed = total - result.failed - result.skipped;
  return result;
}

//   5 passing (10ms) / 2 pending / 4 failing
function readMocha(text: string): SummaryCounts | null {
  const passing = lastMatch(text, /^\s*(\d+) passing\b/gm);
  if (!passing) return null;
  const after = text.slice(passing.index);
  const result = counts('mocha');
  result.passed = Number(passing[1]);
  result.failed = Number(/^\s*(\d+) failing\b/m.exec(after)?.[1] ?? 0);
  result.skipped = Number(/^\s*(\d+) pending\b/m.exec(after)?.[1] ?? 0);
  return result;
}

//   Total:     7 / Passed:    4 / Skipped:   1 / Duration:  8.33ms  (uvu: Total counts the tests that ran)
function readUvu(text: string): SummaryCounts | null {
  const match = lastMatch(text, /^\s*Total:\s+(\d+)\s*\n\s*Passed:\s+(\d+)\s*\n\s*Skipped:\s+(\d+)\s*$/gm);
  if (!match) return null;
  const result = counts('uvu');
  result.passed = Number(match[2]);
  result.failed = Number(match[1]) - Number(match[2]);
  result.skipped = Number(match[3]);
  return result;
}

// ok  	example.com/fx/ok	0.002s   /   FAIL	example.com/fx/calc	0.002s   /   FAIL	example.com/fx/broken [build failed]
function readGo(text: string): SummaryCounts | null {
  const lines = [...text.matchAll(/^(ok|FAIL|\?)\s+(\S+)\s+(\(cached\)|[\d.]+s|\[[a-z ]+\]|\[no test files\])/gm)];
  if (lines.length === 0) return null;
  const result = counts('go', 'packages');
  for (const [, verdict, , rest] of lines) {
    if (verdict === 'ok') result.passed += 1;
    else if (verdict === '?') result.skipped += 1;
    else if (rest!.startsWith('[')) result.errors += 1;
    else result.failed += 1;
  }
  return result;
}

// 3 passed, 1 failed  (optionally `, 2 skipped`, and one word with a colon before it)
function readPlain(text: string): SummaryCounts | null {
  const match = lastMatch(text, /^\s*(?:\w+:\s*)?(\d+) passed, (\d+) failed(?:, (\d+) skipped)?\s*$/gm);
  if (!match) return null;
  const result = counts('plain');
  result.passed = Number(match[1]);
  result.failed = Number(match[2]);
  result.skipped = Number(match[3] ?? 0);
  return result;
}
