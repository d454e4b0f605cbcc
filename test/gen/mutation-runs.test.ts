import { existsSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveRunner, type TestRunner } from '../../src/engine/runners/index.js';
import { makeMutants } from '../../src/engine/gen/mutation/make-mutants.js';
import { mutationEvidence, mutationReport } from '../../src/engine/gen/mutation/mutation-report.js';
import { runMutants, type MutantOutcome } from '../../src/engine/gen/mutation/run-mutants.js';
import { declaredNames, fileOf, identityOf } from '../../src/engine/gen/quality-observe.js';
import { makeRepo, removeRepos, ROOT } from '../helpers/repo.js';

afterAll(removeRepos);

const PYTHON = '/usr/bin/python3';
const GO = '/usr/bin/go';
const every = (text: string): number[] => text.split('\n').map((_, i) => i + 1);

/** The new tests as the quality gate knows them: their ids from a clean run of their files by the runner. */
async function newTests(root: string, runner: TestRunner, files: string[]): Promise<{ id: string; file: string }[]> {
  const run = await runner.runSubset!({ cwd: root, timeoutMs: 120_000 }, { files, names: [] });
  const declared = declaredNames(root, files);
  const out: { id: string; file: string }[] = [];
  for (const t of run!.result.tests) {
    const file = fileOf(root, t, files, declared);
    expect(t.status, `${t.id} passes unmutated`).toBe('passed');
    if (file) out.push({ id: identityOf(file, t).id, file });
  }
  return out;
}

async function mutate(
  root: string,
  runner: TestRunner,
  module: string,
  news: string[],
  existing: string[],
  maxRuns = 20,
  timeoutMs = 120_000,
): Promise<{ tests: { id: string; file: string }[]; outcomes: MutantOutcome[]; made: number }> {
  const tests = await newTests(root, runner, news);
  const text = readFileSync(join(root, module), 'utf8');
  const mutants = await makeMutants(root, { file: module, lines: every(text) }, PYTHON);
  const outcomes = await runMutants({
    runner,
    root,
    signal: new AbortController().signal,
    timeoutMs,
    newTests: tests,
    modules: [{ file: module, mutants, existing }],
    passingBefore: null,
    maxRuns,
  });
  // Never a mutant left behind.
  expect(readFileSync(join(root, module), 'utf8')).toBe(text);
  return { tests, outcomes, made: mutants.length };
}

const idOf = (tests: { id: string }[], part: string): string => tests.find((t) => t.id.includes(part))!.id;

describe('new tests run against mutants of the changed lines, on real runners', () => {
  it('vitest: a test asserting only through a destructured helper kills a mutant; expect(true).toBe(true) kills none', async () => {
    const root = makeRepo(null, {
      'package.json': JSON.stringify({ name: 'calc', private: true, type: 'module', scripts: { test: 'vitest run' } }),
      'src/calc.js':
        'export function clamp(value, low, high) {\n  if (value < low) return low;\n  if (value > high) return high;\n  return value;\n}\n\nexport function double(n) {\n  return n * 2;\n}\n',
      'test/double.test.js':
        "import { expect, test } from 'vitest';\nimport { double } from '../src/calc.js';\n\ntest('doubles', () => {\n  expect(double(2)).toBe(4);\n});\n",
      'test/clamp.test.js':
        "import { expect, test } from 'vitest';\nimport assert from 'node:assert';\nimport { clamp } from '../src/calc.js';\n\nconst { strictEqual } = assert;\n\ntest('clamps below the low bound', () => {\n  strictEqual(clamp(-1, 0, 10), 0);\n  strictEqual(clamp(11, 0, 10), 10);\n});\n\ntest('always true', () => {\n  expect(true).toBe(true);\n});\n\ntest('clamps again', () => {\n  strictEqual(clamp(-1, 0, 10), 0);\n  strictEqual(clamp(11, 0, 10), 10);\n});\n",
    });
    symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'));
    const runner = await resolveRunner(root, {});
    expect(runner.name).toBe('vitest');
    const { tests, outcomes } = await mutate(
      root,
      runner,
      'src/calc.js',
      ['test/clamp.test.js'],
      ['test/double.test.js'],
    );
    const helper = idOf(tests, 'clamps below');
    const constant = idOf(tests, 'always true');
    expect(mutationEvidence(outcomes, helper).killed).toBeGreaterThan(0);
    const none = mutationEvidence(outcomes, constant);
    expect(none.killed).toBe(0);
    expect(none.text).toMatch(
      /^killed none of the \d+ mutant\(s\) of the changed lines run: it passed on each \(src\/calc\.js:\d+ /,
    );
    // The gate's evidence on a test covering nothing new: the copy kills what the kept test kills (a real test that
    // checks is kept, copy or not), the constant test kills none of the mutants run.
    const copy = mutationEvidence(outcomes, idOf(tests, 'clamps again'));
    expect(copy.killed).toBe(mutationEvidence(outcomes, helper).killed);
    expect(none.ran).toBe(copy.ran);
    // The kept test kills mutants of clamp the existing suite (double only) does not: Meta's ACH measure.
    const report = mutationReport(new Map([['src/calc.js', outcomes.length]]), outcomes, new Set([helper]));
    expect(report.modules[0]!.killedByKept).toBeGreaterThan(0);
    expect(report.modules[0]!.killedByKeptOnly).toBeGreaterThan(0);
    // double's mutant is killed by the existing test alone.
    const doubled = outcomes.find((o) => o.description.startsWith('n * 2') || o.description === '* -> /');
    if (doubled) expect(doubled.existingKilledBy?.length).toBeGreaterThan(0);
  });

  it('pytest: a real assert kills, `assert True` does not; the existing test reaching the module runs beside them', async () => {
    const root = makeRepo(null, {
      'calc.py':
        'def clamp(value, low, high):\n    if value < low:\n        return low\n    if value > high:\n        return high\n    return value\n\n\ndef double(n):\n    return n * 2\n',
      'test_double.py': 'from calc import double\n\n\ndef test_double():\n    assert double(2) == 4\n',
      'test_clamp_new.py':
        'import pytest\nfrom calc import clamp\n\n\n@pytest.mark.parametrize("value,want", [(-1, 0), (11, 10), (5, 5)])\ndef test_clamp(value, want):\n    assert clamp(value, 0, 10) == want\n\n\ndef test_nothing():\n    assert True\n',
    });
    const runner = await resolveRunner(root, { testCmd: `${PYTHON} -m pytest -q -p no:cacheprovider` });
    const { tests, outcomes } = await mutate(root, runner, 'calc.py', ['test_clamp_new.py'], ['test_double.py'], 8);
    const clamp = tests.filter((t) => t.id.includes('test_clamp['));
    expect(clamp).toHaveLength(3);
    expect(clamp.some((t) => mutationEvidence(outcomes, t.id).killed > 0)).toBe(true);
    expect(mutationEvidence(outcomes, idOf(tests, 'test_nothing')).killed).toBe(0);
    const existing = outcomes.filter((o) => o.existingKilledBy !== null);
    expect(existing.length).toBeGreaterThan(0);
  }, 240_000);

  it('go test: a table test kills a mutant, a test checking nothing does not', async (ctx) => {
    if (!existsSync(GO)) return ctx.skip('go is not installed (/usr/bin/go)');
    const root = makeRepo(null, {
      'go.mod': 'module example.com/calc\n\ngo 1.19\n',
      'calc.go':
        'package calc\n\n// Clamp keeps value between low and high.\nfunc Clamp(value, low, high int) int {\n\tif value < low {\n\t\treturn low\n\t}\n\tif value > high {\n\t\treturn high\n\t}\n\treturn value\n}\n\n// Double twice n.\nfunc Double(n int) int {\n\treturn n + n\n}\n',
      'double_test.go':
        'package calc\n\nimport "testing"\n\nfunc TestDouble(t *testing.T) {\n\tif Double(2) != 4 {\n\t\tt.Fatal("Double(2) != 4")\n\t}\n}\n',
      'clamp_new_test.go':
        'package calc\n\nimport "testing"\n\nfunc TestClamp(t *testing.T) {\n\tfor _, c := range []struct{ v, want int }{{-1, 0}, {11, 10}, {5, 5}} {\n\t\tif got := Clamp(c.v, 0, 10); got != c.want {\n\t\t\tt.Errorf("Clamp(%d) = %d", c.v, got)\n\t\t}\n\t}\n}\n\nfunc TestNothing(t *testing.T) {\n\t_ = Clamp(1, 0, 2)\n}\n',
    });
    const runner = await resolveRunner(root, { runner: 'go' });
    const { tests, outcomes } = await mutate(root, runner, 'calc.go', ['clamp_new_test.go'], ['double_test.go'], 6);
    expect(mutationEvidence(outcomes, idOf(tests, 'TestClamp')).killed).toBeGreaterThan(0);
    expect(mutationEvidence(outcomes, idOf(tests, 'TestNothing')).killed).toBe(0);
  }, 240_000);

  it('node:test: a mutant that makes the run hang is counted killed, as a timeout, and the module comes back', async () => {
    const root = makeRepo(null, {
      'package.json': JSON.stringify({
        name: 'count',
        private: true,
        type: 'module',
        scripts: { test: 'node --test' },
      }),
      'count.js': 'export function count(n) {\n  let i = 0;\n  while (i < n) {\n    i++;\n  }\n  return i;\n}\n',
      'test/count.test.js':
        "import { test } from 'node:test';\nimport { strictEqual } from 'node:assert';\nimport { count } from '../count.js';\n\ntest('counts to n', () => {\n  strictEqual(count(3), 3);\n});\n",
    });
    const runner = await resolveRunner(root, {});
    expect(runner.name).toBe('node-test');
    const { outcomes } = await mutate(root, runner, 'count.js', ['test/count.test.js'], [], 20, 8_000);
    const hang = outcomes.find((o) => o.description.startsWith('i++'));
    expect(hang?.status).toBe('timeout');
    expect(hang?.why).toMatch(/hung past/);
    expect(outcomes.some((o) => o.status === 'killed')).toBe(true);
    // The hanging mutant first, with only the stability runs' time known: bounded by it (10 s at least), not by
    // the test timeout (json-schema-traverse's first mutant looped until gen was killed at 900 s).
    const tests = await newTests(root, runner, ['test/count.test.js']);
    const text = readFileSync(join(root, 'count.js'), 'utf8');
    const mutants = await makeMutants(root, { file: 'count.js', lines: every(text) }, PYTHON);
    const started = Date.now();
    const [first] = await runMutants({
      runner,
      root,
      signal: new AbortController().signal,
      timeoutMs: 600_000,
      cleanMs: 300,
      newTests: tests,
      modules: [{ file: 'count.js', mutants: mutants.filter((m) => m.description.startsWith('i++')), existing: [] }],
      passingBefore: null,
      maxRuns: 1,
    });
    expect(first).toMatchObject({ status: 'timeout', why: 'the run hung past 10 s' });
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(readFileSync(join(root, 'count.js'), 'utf8')).toBe(text);
  }, 240_000);
});
