import { copyFile, mkdir, readdir, readFile } from 'node:fs/promises';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { execa } from 'execa';
import { coveredKeys, type CoverageData } from '../gen/coverage/model.js';
import { repoRelative } from '../gen/coverage/paths.js';
import { readV8Coverage } from '../gen/coverage/v8.js';
import type { Failure } from '../types.js';
import type { SpectrumUnit } from './types.js';
import { isSuspectSource } from './source-paths.js';
import { scriptLines } from './v8-script-lines.js';
import { oneLineCalls } from './call-keys.js';
import { SUBTEST_MARK, subtestOutcomes, testFunctionOf, withSubtestContexts } from './python-subtests.js';

/** Which test files a failing unit is made of, for telling failed units from passed ones. */
export interface FailingSets {
  files: Set<string>;
  /** Test ids of the failures, for per-test contexts. */
  ids: readonly string[];
}

/** One unit of the whole run: a runner whose coverage cannot be told apart per test or file. */
export function runUnit(coverage: CoverageData): SpectrumUnit {
  return {
    name: 'the coverage run',
    failed: true,
    lines: [...coveredKeys(coverage)].filter((k) => !k.endsWith(':branch')),
  };
}

/** A process's unit, with the hits behind it (for splitting its failing tests from its passing ones). */
export interface ProcessUnit extends SpectrumUnit {
  coverage: CoverageData;
}

/**
 * One unit per Node process from the V8 coverage folder: a process that loaded a failing test file failed.
 * Runners that start one process per test file (node:test, node-tap) give one unit per test file.
 */
export async function v8ProcessUnits(dir: string, root: string, failing: FailingSets): Promise<ProcessUnit[]> {
  const projectUrl = pathToFileURL(root).href + '/';
  const units: ProcessUnit[] = [];
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.json'));
  for (const [k, name] of names.entries()) {
    const text = await readFile(join(dir, name), 'utf8').catch(() => '');
    if (!text.includes(projectUrl)) continue;
    const loaded = [...text.matchAll(/"url":"(file:[^"]+)"/g)]
      .map((m) => m[1]!)
      .filter((u) => u.startsWith(projectUrl))
      .map((u) => decodeURIComponent(u.slice(projectUrl.length)));
    const tests = loaded.filter((f) => !f.includes('node_modules/') && !isSuspectSource(f));
    if (tests.length === 0) continue;
    const own = join(dir, `unit-${k}`);
    await mkdir(own, { recursive: true });
    await copyFile(join(dir, name), join(own, name));
    const coverage = await readV8Coverage(own, root, isSuspectSource);
    const lines = [...coveredKeys(coverage)].filter((key) => !key.endsWith(':branch'));
    if (lines.length === 0) continue;
    units.push({ name: tests.join(', '), failed: tests.some((t) => failing.files.has(t)), lines, coverage });
  }
  return units;
}

/**
 * Adds coverage.py's per-test contexts to the run's settings (written by gen's preparePython), and a context per
 * unittest subtest within them (switching contexts inside a test's own is what coverage.py warns of: not here).
 * Lines only: the spectrum reads no branch, and arcs cost coverage.py's report more than twice the time of lines
 * (docutils' include tests: 2.6 s against 6.7 s for `coverage json --show-contexts`).
 */
export function withTestContexts(dir: string, failingIds: readonly string[]): void {
  const rc = join(dir, 'py', '.coveragerc');
  const contexts = '[run]\ndynamic_context = test_function\ndisable_warnings = dynamic-conflict\n';
  writeFileSync(
    rc,
    readFileSync(rc, 'utf8').replace('[run]\n', contexts).replace('branch = True\n', 'branch = False\n'),
  );
  withSubtestContexts(join(dir, 'py'), failingIds);
}

interface ContextReport {
  files?: Record<string, { contexts?: Record<string, string[]> }>;
}

/** A coverage.py context (`tests.test_mod.TestX.test_y`) is a failing test when a failure's id ends with its function. */
function contextFailed(context: string, ids: readonly string[]): boolean {
  const parts = context.split('.');
  const fn = parts.at(-1)!;
  const owner = parts.at(-2);
  return ids.some((id) => testFunctionOf(id) === fn && (!owner || id.includes(owner)));
}

/** One unit per test from coverage.py's dynamic contexts (`dynamic_context = test_function`). */
export async function pythonContextUnits(
  dir: string,
  root: string,
  failing: FailingSets,
): Promise<{ units: SpectrumUnit[]; missing?: string }> {
  const py = join(dir, 'py');
  const python = existsSync(join(py, 'python')) ? readFileSync(join(py, 'python'), 'utf8').trim() : null;
  if (!python) {
    const without = existsSync(join(py, 'no-coverage'))
      ? readFileSync(join(py, 'no-coverage'), 'utf8').split('\n')[0]
      : null;
    return {
      units: [],
      missing: without
        ? `coverage.py is not installed for ${without}, the Python that ran the tests`
        : 'coverage.py never started in the Python that ran the tests',
    };
  }
  const rc = `--rcfile=${join(py, '.coveragerc')}`;
  const opts = {
    cwd: root,
    reject: false,
    timeout: 120_000,
    env: { COVERAGE_PROCESS_START: undefined, PYTHONPATH: process.env.PYTHONPATH },
  };
  await execa(python, ['-m', 'coverage', 'combine', '--quiet', rc], opts);
  const json = join(py, 'contexts.json');
  const made = await execa(python, ['-m', 'coverage', 'json', '--quiet', '--show-contexts', rc, '-o', json], opts);
  if (!existsSync(json))
    return {
      units: [],
      missing: `coverage.py could not write its report: ${made.stderr.trim().split('\n').at(-1) ?? made.exitCode}`,
    };
  const report = JSON.parse(await readFile(json, 'utf8')) as ContextReport;
  const byContext = new Map<string, string[]>();
  for (const [name, f] of Object.entries(report.files ?? {})) {
    const file = repoRelative(root, name, root);
    if (!isSuspectSource(file)) continue;
    for (const [line, contexts] of Object.entries(f.contexts ?? {})) {
      for (const context of contexts) {
        if (!context) continue; // lines run outside any test (imports)
        const list = byContext.get(context) ?? [];
        list.push(`${file}:${line}`);
        byContext.set(context, list);
      }
    }
  }
  return { units: contextUnits(byContext, failing.ids, subtestOutcomes(py)) };
}

/**
 * A unit per context: a test function's, or a subtest's within it (`SUBTEST_MARK`). A subtest failed when it
 * said so and its test is a failing one; a skipped subtest ran part of its case, and is no unit. A failing test
 * whose subtests failed is told by them: what it ran outside them (the loop over its cases) is no unit.
 */
function contextUnits(
  byContext: ReadonlyMap<string, string[]>,
  ids: readonly string[],
  subtests: ReadonlyMap<string, 'failed' | 'skipped'>,
): SpectrumUnit[] {
  const testOf = (context: string): string => context.replace(/\|run$/, '').split(SUBTEST_MARK)[0]!;
  const toldBySubtests = new Set(
    [...subtests].flatMap(([label, outcome]) => (outcome === 'failed' ? [testOf(label)] : [])),
  );
  const units: SpectrumUnit[] = [];
  for (const [context, lines] of byContext) {
    const test = testOf(context);
    const subtest = context.includes(SUBTEST_MARK);
    if (subtest && subtests.get(context) === 'skipped') continue;
    if (!subtest && toldBySubtests.has(test) && contextFailed(test, ids)) continue;
    const failed = contextFailed(test, ids) && (!subtest || subtests.get(context) === 'failed');
    units.push({ name: context, failed, lines });
  }
  return units;
}

interface V8Function {
  functionName: string;
  ranges: { startOffset: number; endOffset: number; count: number }[];
  isBlockCoverage: boolean;
}

interface TestCoverageFile {
  /** `assertion`: the take of one of the test's checks (its number), or of what ran after the last (`rest`). */
  test?: { title?: string; fullTitle?: string; file?: string; state?: string; assertion?: number | 'rest' };
  /** `source`: the text V8 ran, where it is not the file (jest's transform). */
  result?: { url: string; source?: string; functions: V8Function[] }[];
}

/** A function of a script, by where it starts: the same in every test's take. */
const functionKey = (url: string, f: V8Function): string => `${url}#${f.ranges[0]?.startOffset ?? 0}`;
const ran = (f: V8Function): boolean => (f.ranges[0]?.count ?? 0) > 0;

/**
 * One unit per test from the per-test coverage fixcycle's mocha reporter or tape/ava preload wrote (`FIXCYCLE_TEST_COVERAGE`, one
 * V8 coverage file per test, its first range of count 0 over the whole script): a test failed when the runner
 * said so and one of the failures is that test. Ochiai gives a line no failing test ran 0 whoever else ran
 * it, so a passing test is converted only for the functions some failing test ran, and a script's take is
 * converted once for all the tests that ran the same blocks of it: on a file of hundreds of tests over a
 * 4,000-line module, most of them.
 */
export async function perTestUnits(dir: string, root: string, failures: readonly Failure[]): Promise<SpectrumUnit[]> {
  const names = new Set(failures.map((f) => f.name.split(' > ').at(-1)!));
  // mocha's failures are named after the test; tape's after the assertion, their id in the test's name
  // (`test > message`).
  const failedTest = (title: string): boolean =>
    names.has(title) || failures.some((f) => f.id.startsWith(`${title} > `) || f.name.startsWith(`${title} > `));
  const tests: {
    name: string;
    failed: boolean;
    scripts: NonNullable<TestCoverageFile['result']>;
    /** The test whose checks this take is one of (ava's per-check takes). */
    checksOf?: string;
  }[] = [];
  let checking: string | undefined;
  for (const folder of (await readdir(dir).catch(() => [] as string[])).sort()) {
    let file: TestCoverageFile;
    try {
      file = JSON.parse(await readFile(join(dir, folder, 'coverage.json'), 'utf8')) as TestCoverageFile;
    } catch {
      continue; // a process killed while writing leaves a torn file
    }
    const about = file.test;
    if (!about || about.state === 'pending' || !file.result) continue;
    const name = about.fullTitle ?? about.title ?? folder;
    const failed = about.state === 'failed' && failedTest(about.title ?? '');
    if (about.assertion === undefined) {
      tests.push({ name, failed, scripts: file.result });
      continue;
    }
    if (about.assertion === 1 || checking === undefined) checking = folder;
    const which = about.assertion === 'rest' ? 'after its checks' : `check ${about.assertion}`;
    tests.push({ name: `${name} (${which})`, failed, scripts: file.result, checksOf: checking });
    if (about.assertion === 'rest') checking = undefined;
  }
  const relevant = new Set(
    tests
      .filter((t) => t.failed)
      .flatMap((t) => t.scripts.flatMap((s) => s.functions.filter(ran).map((f) => functionKey(s.url, f)))),
  );
  const converted = new Map<string, string[]>();
  const linesOf = async (script: { url: string; source?: string; functions: V8Function[] }): Promise<string[]> => {
    // Whether a block ran is all a unit says: its count does not matter.
    const key = JSON.stringify([
      script.url,
      script.source,
      script.functions.map((f) => f.ranges.map((r) => [r.startOffset, r.endOffset, r.count > 0])),
    ]);
    const known = converted.get(key);
    if (known) return known;
    let lines: string[];
    if (script.source) lines = await scriptLines(root, { ...script, source: script.source });
    else {
      const own = join(dir, `script-${converted.size}`);
      await mkdir(own, { recursive: true });
      writeFileSync(join(own, 'coverage.json'), JSON.stringify({ result: [script] }));
      const coverage = await readV8Coverage(own, root, isSuspectSource);
      lines = [...coveredKeys(coverage)].filter((k) => !k.endsWith(':branch'));
    }
    converted.set(key, lines);
    return lines;
  };
  const texts = new Map<string, Promise<string | null>>();
  const units: SpectrumUnit[] = [];
  for (const test of tests) {
    const lines: string[] = [];
    for (const script of test.scripts) {
      const [notRun, ...functions] = script.functions;
      const kept = test.failed ? functions : functions.filter((f) => relevant.has(functionKey(script.url, f)));
      if (notRun && kept.some(ran)) lines.push(...(await linesOf({ ...script, functions: [notRun, ...kept] })));
      if (!script.source) lines.push(...(await oneLineCalls(root, { url: script.url, functions: kept }, texts)));
    }
    // A test that ran none of it still counts: the evidence says of how many passing tests.
    units.push({ name: test.name, failed: test.failed, lines });
  }
  return byChecks(
    units,
    tests.map((t) => t.checksOf),
  );
}

/**
 * A test's checks as units of their own, where each failing check ran code of its own (a table of cases, each
 * computed before it is checked); else the test as one unit, as when a check fails on what an earlier step
 * computed (`const r = parse(x); t.is(r.a, 1); t.is(r.b, 2)`: the second check ran nothing, the fault is in
 * what the first one's step ran). What ran after the last check is a unit when it ran anything.
 */
function byChecks(units: readonly SpectrumUnit[], checksOf: readonly (string | undefined)[]): SpectrumUnit[] {
  const order: (SpectrumUnit | SpectrumUnit[])[] = [];
  const groups = new Map<string, SpectrumUnit[]>();
  units.forEach((unit, i) => {
    const group = checksOf[i];
    if (group === undefined) return void order.push(unit);
    let cases = groups.get(group);
    if (!cases) {
      groups.set(group, (cases = []));
      order.push(cases);
    }
    cases.push(unit);
  });
  return order.flatMap((entry) => {
    if (!Array.isArray(entry)) return [entry];
    const test = entry[0]!.name.replace(/ \((check \d+|after its checks)\)$/, '');
    if (entry.some((c) => c.failed && c.lines.length === 0))
      return [{ name: test, failed: true, lines: [...new Set(entry.flatMap((c) => c.lines))] }];
    const kept = entry.filter((c) => c.failed || c.lines.length > 0 || !c.name.endsWith('(after its checks)'));
    return kept.length === 1 ? [{ ...kept[0]!, name: test }] : kept;
  });
}
