import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { git, readJson, removeRepos, ROOT } from '../helpers/repo.js';
import { genProject, genSession, pytestBase, pytestEnv, runGen } from '../helpers/gen-run.js';

afterAll(removeRepos);

// Every gate of `fixcycle gen` on real runners: a stand-in agent answers each round with good tests and the menu
// of bad generations (test/fixtures/agents/gate-menu-agent.mjs), and what gen commits is checked by the runner.
const AGENT = join(ROOT, 'test/fixtures/agents/gate-menu-agent.mjs');

/** gen with the gate-menu agent keeping its notes in a folder of its own. */
async function gen(
  repo: string,
): Promise<{ out: string; exitCode: number | null | undefined; state: any; agent: string; committed: string[] }> {
  const agent = mkdtempSync(join(tmpdir(), 'fixcycle-gate-agent-'));
  return { ...(await runGen(repo, `${process.execPath} ${AGENT} ${agent}`)), agent };
}

/** Each rejection as `<gate> <test>: <reason>`. */
const rejections = (state: any): string[] => state.rejected.map((r: any) => `${r.gate} ${r.test}: ${r.reason}`);

function expectRejected(state: any, test: string, reason: RegExp): void {
  const found = rejections(state).filter((r) => r.includes(`${test}:`) || r.includes(`${test}"`));
  expect(
    found.some((r) => reason.test(r)),
    `${test} rejected for ${reason}; rejections:\n${rejections(state).join('\n')}`,
  ).toBe(true);
}

// A test L0 finds asserting nothing (or on a constant) is dropped when a run agrees: its own coverage run adds
// nothing (and, with the mutation step, it kills no mutant). L0's words stay in the reason.
const NOTHING_NO_ASSERTION = /IMPL-001\.5 .*checks nothing: .*asserts nothing/;
const NOTHING_CONSTANT = /IMPL-001\.5 .*checks nothing: .*(asserts on a constant|compares a value with itself)/;

const calcJs = (cjs: boolean) =>
  `${cjs ? 'exports.add = add;\nexports.clamp = clamp;\n\n' : 'export '}function add(a, b) {\n  return a + b;\n}\n\n${cjs ? '' : 'export '}function clamp(value, low, high) {\n  if (value < low) return low;\n  if (value > high) return high;\n  return value;\n}\n`;

describe('every gate of gen with real runners on a menu of bad generations', () => {
  it('vitest: L0 rejects imports, names, assertions, placeholders, skips and syntax; the gate finds the file breaking collection, drops flaky tests precisely and removes emptied files; 4 same titles in 4 describes get 4 verdicts', async () => {
    const repo = genProject(
      {
        'package.json': JSON.stringify({
          name: 'calclib',
          private: true,
          type: 'module',
          scripts: { test: 'vitest run' },
        }),
        'src/slug.js': "export const slug = (s) => s.trim().toLowerCase().replace(/\\s+/g, '-');\n",
        'test/slug.test.js':
          "import { expect, test } from 'vitest';\nimport { slug } from '../src/slug.js';\n\ntest('slug joins words', () => {\n  expect(slug(' A b ')).toBe('a-b');\n});\n",
      },
      { 'src/calc.js': calcJs(false) },
      true,
    );
    const { out, exitCode, state, agent, committed } = await gen(repo);
    expect(exitCode, out).toBe(0);
    // L0, per test where the problem is one test's, per file where it is the file's.
    expectRejected(state, 'test/calc-ghost.test.js', /IMPL-001\.3 .*export: imports \{ multiply \}/);
    expectRejected(state, 'test/calc-missing.test.js', /IMPL-001\.3 .*import: imports "\.\.\/src\/calculator\.js"/);
    expectRejected(state, 'test/calc-syntax.test.js', /IMPL-001\.3 .*syntax: SyntaxError/);
    expectRejected(state, 'clamp inside > runs without checking', NOTHING_NO_ASSERTION);
    expectRejected(state, 'clamp inside > is constant', NOTHING_CONSTANT);
    expectRejected(state, 'clamp inside > is skipped', /focused-or-skipped/);
    expectRejected(
      state,
      'clamp inside > is a placeholder',
      /IMPL-001\.5 .*checks nothing: .*placeholder: its body is empty/,
    );
    // The quality gate: the file that throws on load is found alone, with vitest's own words.
    expectRejected(state, 'test/calc-boot.test.js', /IMPL-001\.5 .*does not collect: .*calc-boot: needs a database/);
    expectRejected(state, 'test/calc.test.js::timing > alternates', /IMPL-001\.5 .*flaky: passed \d of 5 runs/);
    expectRejected(state, 'test/calc-flaky.test.js::alternates alone', /flaky/);
    // The runner's full identity: four tests titled alike in four describes, four verdicts, four kept.
    expect(state.kept.map((k: any) => k.test).sort()).toEqual([
      'test/calc.test.js::add > gives the right answer',
      'test/calc.test.js::clamp above > gives the right answer',
      'test/calc.test.js::clamp below > gives the right answer',
      'test/calc.test.js::clamp inside > gives the right answer',
    ]);
    // Only the kept tests are committed: no file without tests, nothing rejected.
    expect(committed).toEqual(['test/calc.test.js']);
    const text = readFileSync(join(repo, 'test/calc.test.js'), 'utf8');
    expect(text).not.toMatch(/without checking|is constant|is skipped|placeholder|timing|alternates/);
    expect(git(repo, 'status', '--porcelain')).toBe('');
    // The coverage round's prompt said why tests were rejected.
    const prompts = readdirSync(agent)
      .filter((f) => f.startsWith('prompt-generate-'))
      .sort();
    expect(readFileSync(join(agent, prompts.at(-1)!), 'utf8')).toMatch(
      /rejected: test\/calc-boot\.test\.js: does not collect/,
    );
    // vitest on the committed tree: every test file collects, the fix loop's baseline is the project's plus the kept.
    const vitest = spawnSync(join(repo, 'node_modules/.bin/vitest'), ['run'], { cwd: repo, encoding: 'utf8' });
    expect(vitest.status, vitest.stdout + vitest.stderr).toBe(0);
    expect(stripVTControlCharacters(vitest.stdout)).toMatch(/Tests\s+5 passed \(5\)/);
  }, 480_000);

  it("node:test (fixcycle's own kind of fixture): a file left holding only imports after its flaky test went is removed, never committed", async () => {
    const repo = genProject(
      {
        'package.json': JSON.stringify({
          name: 'calclib',
          private: true,
          type: 'module',
          scripts: { test: 'node --test' },
        }),
        'src/slug.js': "export const slug = (s) => s.trim().toLowerCase().replace(/\\s+/g, '-');\n",
        'test/slug.test.js':
          "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { slug } from '../src/slug.js';\n\ntest('slug joins words', () => {\n  assert.equal(slug(' A b '), 'a-b');\n});\n",
      },
      { 'src/calc.js': calcJs(false) },
    );
    const { out, exitCode, state, committed } = await gen(repo);
    expect(exitCode, out).toBe(0);
    expectRejected(state, 'test/calc-boot.test.js', /IMPL-001\.5 .*does not collect: .*calc-boot: needs a database/);
    expectRejected(state, 'alternates alone', /flaky/);
    expect(out).toMatch(/test\/calc-flaky\.test\.js removed/);
    expect(committed).toEqual(['test/calc.test.js']);
    expect(readFileSync(join(repo, 'test/calc.test.js'), 'utf8')).not.toMatch(
      /timing|alternates|without checking|is constant|is skipped|placeholder/,
    );
    const node = spawnSync(process.execPath, ['--test'], { cwd: repo, encoding: 'utf8' });
    expect(node.status, node.stdout + node.stderr).toBe(0);
    expect(node.stdout).toMatch(/# pass 5\n# fail 0/);
  }, 480_000);

  it('jest (babel-jest, CommonJS): the same menu, the suite that throws on load found alone, "must contain at least one test" never committed', async () => {
    const repo = genProject(
      {
        'package.json': JSON.stringify({ name: 'calclib', private: true, scripts: { test: 'jest' } }),
        'jest.config.js': "module.exports = { testEnvironment: 'node' };\n",
        'src/slug.js': "exports.slug = (s) => s.trim().toLowerCase().replace(/\\s+/g, '-');\n",
        'test/slug.test.js':
          "const { slug } = require('../src/slug.js');\n\ntest('slug joins words', () => {\n  expect(slug(' A b ')).toBe('a-b');\n});\n",
      },
      { 'src/calc.js': calcJs(true) },
      true,
    );
    const { out, exitCode, state, committed } = await gen(repo);
    expect(exitCode, out).toBe(0);
    expectRejected(state, 'test/calc-ghost.test.js', /IMPL-001\.3 .*export: imports \{ multiply \}/);
    expectRejected(state, 'test/calc-missing.test.js', /IMPL-001\.3 .*import: imports "\.\.\/src\/calculator\.js"/);
    expectRejected(state, 'test/calc-syntax.test.js', /syntax: SyntaxError/);
    expectRejected(state, 'clamp inside > runs without checking', NOTHING_NO_ASSERTION);
    expectRejected(state, 'clamp inside > is constant', NOTHING_CONSTANT);
    expectRejected(state, 'clamp inside > is skipped', /focused-or-skipped/);
    expectRejected(state, 'clamp inside > is a placeholder', /IMPL-001\.5 .*checks nothing: .*placeholder/);
    expectRejected(state, 'test/calc-boot.test.js', /IMPL-001\.5 .*does not collect: .*calc-boot: needs a database/);
    expectRejected(state, 'test/calc.test.js::timing > alternates', /flaky/);
    expectRejected(state, 'test/calc-flaky.test.js::alternates alone', /flaky/);
    expect(state.kept.map((k: any) => k.test).sort()).toEqual([
      'test/calc.test.js::add > gives the right answer',
      'test/calc.test.js::clamp above > gives the right answer',
      'test/calc.test.js::clamp below > gives the right answer',
      'test/calc.test.js::clamp inside > gives the right answer',
    ]);
    expect(committed).toEqual(['test/calc.test.js']);
    const jest = spawnSync(process.execPath, [join(repo, 'node_modules/jest/bin/jest.js')], {
      cwd: repo,
      encoding: 'utf8',
    });
    expect(jest.status, jest.stdout + jest.stderr).toBe(0);
    expect(jest.stderr).toMatch(/Tests:\s+5 passed, 5 total/);
  }, 480_000);

  const pyEnv = pytestEnv;
  it.skipIf(!pyEnv)(
    'pytest with coverage.py (skipped without a python3 that imports pytest and coverage): L0 for Python, the module breaking collection found alone, tests named by class and parametrize id, drops per method',
    async () => {
      const repo = genProject(pytestBase(pyEnv), {
        'calc.py':
          'def add(a, b):\n    return a + b\n\n\ndef clamp(value, low, high):\n    if value < low:\n        return low\n    if value > high:\n        return high\n    return value\n',
      });
      const { out, exitCode, state, agent, committed } = await gen(repo);
      expect(exitCode, out).toBe(0);
      expect(readJson(join(genSession(repo), '.process/l0-round-1.json')).ran).toContainEqual(
        expect.stringMatching(/^python imports/),
      );
      expectRejected(
        state,
        'tests/test_ghost.py',
        /IMPL-001\.3 .*export: imports \{ multiply \} from "calc", which calc\.py does not define/,
      );
      expectRejected(
        state,
        'tests/test_missing.py',
        /IMPL-001\.3 .*import: imports "calculator", a module that does not exist/,
      );
      expectRejected(state, 'tests/test_syntax.py', /IMPL-001\.3 .*syntax: SyntaxError/);
      // Named for what it is: a test without assertion, not a redundant one.
      expectRejected(
        state,
        'tests/test_calc.py::test_runs_without_checking',
        /IMPL-001\.5 .*checks nothing: .*test "test_runs_without_checking" asserts nothing/,
      );
      expectRejected(state, 'tests/test_calc.py::test_is_constant', NOTHING_CONSTANT);
      expectRejected(state, 'tests/test_calc.py: "test_is_skipped"', /focused-or-skipped: @pytest\.mark\.skip/);
      expectRejected(
        state,
        'tests/test_calc.py::test_is_a_placeholder',
        /IMPL-001\.5 .*checks nothing: .*placeholder: .*only `pass`/,
      );
      expectRejected(
        state,
        'tests/test_boot.py',
        /IMPL-001\.5 .*does not collect: .*RuntimeError: test_boot: needs a database/,
      );
      expectRejected(state, 'tests/test_calc.py::TestTiming > test_alternates', /flaky/);
      expectRejected(state, 'tests/test_flaky.py::test_alternates_alone', /flaky/);
      expect(state.kept.map((k: any) => k.test).sort()).toEqual([
        'tests/test_calc.py::TestAdd > test_answer',
        'tests/test_calc.py::TestClamp > test_answer[above]',
        'tests/test_calc.py::TestClamp > test_answer[below]',
        'tests/test_calc.py::TestInside > test_answer',
      ]);
      expect(committed).toEqual(['tests/test_calc.py']);
      const text = readFileSync(join(repo, 'tests/test_calc.py'), 'utf8');
      expect(text).not.toMatch(/without_checking|is_constant|is_skipped|placeholder|TestTiming/);
      const prompts = readdirSync(agent)
        .filter((f) => f.startsWith('prompt-generate-'))
        .sort();
      expect(readFileSync(join(agent, prompts[0]!), 'utf8')).not.toMatch(/modules: esm/);
      expect(readFileSync(join(agent, prompts.at(-1)!), 'utf8')).toMatch(
        /rejected: tests\/test_boot\.py: does not collect/,
      );
      const pytest = spawnSync('python3', ['-m', 'pytest', '-q', '-p', 'no:cacheprovider'], {
        cwd: repo,
        encoding: 'utf8',
        env: { ...process.env, ...pyEnv },
      });
      expect(pytest.status, pytest.stdout + pytest.stderr).toBe(0);
      expect(pytest.stdout).toMatch(/\b5 passed\b/);
    },
    480_000,
  );

  const goReady = spawnSync('go', ['version'], { stdio: 'ignore' }).status === 0;
  it.skipIf(!goReady)(
    'go test (skipped without go on PATH): go vet in L0, a missing import and the undeclared name behind it, a file breaking the package found alone, subtests dropped alone',
    async () => {
      const repo = genProject(
        {
          'go.mod': 'module example.com/calc\n\ngo 1.19\n',
          'slug.go':
            'package calc\n\nimport "strings"\n\nfunc Slug(s string) string {\n\treturn strings.Join(strings.Fields(strings.ToLower(s)), "-")\n}\n',
          'slug_test.go':
            'package calc\n\nimport "testing"\n\nfunc TestSlug(t *testing.T) {\n\tif Slug(" A b ") != "a-b" {\n\t\tt.Error("slug")\n\t}\n}\n',
        },
        {
          'calc.go':
            'package calc\n\nfunc Add(a, b int) int {\n\treturn a + b\n}\n\nfunc Clamp(value, low, high int) int {\n\tif value < low {\n\t\treturn low\n\t}\n\tif value > high {\n\t\treturn high\n\t}\n\treturn value\n}\n',
        },
      );
      const { out, exitCode, state, committed } = await gen(repo);
      expect(exitCode, out).toBe(0);
      // A generate call is labelled as what it is, as agent-calls.jsonl has it.
      expect(out).toMatch(/\[agent\] gate-menu-agent \(generate\): ok/);
      expect(out).not.toMatch(/\(fix\)/);
      expectRejected(state, 'missing_test.go', /IMPL-001\.3 .*import: .*example\.com\/calculator/);
      expectRejected(state, 'ghost_test.go', /IMPL-001\.3 .*export: .*Multiply/);
      expectRejected(state, 'calc_test.go::TestRunsWithoutChecking', NOTHING_NO_ASSERTION);
      expectRejected(state, 'calc_test.go: "TestIsSkipped"', /focused-or-skipped/);
      expectRejected(
        state,
        'calc_test.go::TestIsAPlaceholder',
        /IMPL-001\.5 .*checks nothing: .*placeholder: its body is empty/,
      );
      // A file whose init panics stops the package's test binary: found by running it with the other new files aside.
      expectRejected(state, 'boot_test.go', /IMPL-001\.5 .*does not collect: .*boot_test: needs a database/);
      expectRejected(state, 'calc_test.go::TestClamp/alternates', /flaky/);
      expectRejected(state, 'flaky_test.go::TestAlternatesAlone', /flaky/);
      expect(state.kept.map((k: any) => k.test).sort()).toEqual([
        'calc_test.go::TestAdd',
        'calc_test.go::TestClamp/above',
        'calc_test.go::TestClamp/below',
        'calc_test.go::TestClamp/inside',
      ]);
      expect(committed).toEqual(['calc_test.go']);
      const text = readFileSync(join(repo, 'calc_test.go'), 'utf8');
      expect(text).not.toMatch(/alternates|WithoutChecking|IsSkipped|Placeholder/);
      const go = spawnSync('go', ['test', './...'], { cwd: repo, encoding: 'utf8' });
      expect(go.status, go.stdout + go.stderr).toBe(0);
    },
    480_000,
  );
});
