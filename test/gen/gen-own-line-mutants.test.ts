import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeRepos, ROOT } from '../helpers/repo.js';
import { genProject, pytestBase, pytestEnv, runGen } from '../helpers/gen-run.js';

afterAll(removeRepos);

const AGENT = join(ROOT, 'test/fixtures/agents/files-agent.mjs');

// A change of 30 small functions: more mutation sites than the 20 mutants made, and 4 of those run, so a test of
// one function (the third, which the spread skips) never meets a mutant of its own lines there. pyflakes' shape:
// the real test asserts through the project's own helper (tests/helpers.py), which L0 cannot see.
const fns = Array.from({ length: 30 }, (_, i) => `def f${i}(x):\n    return x > ${i}\n`).join('\n\n');
const calls = Array.from({ length: 30 }, (_, i) => `    assert f${i}(${i + 1}) and not f${i}(${i})`).join('\n');

describe('gen: a doubted test the first mutant runs would drop meets mutants of its own lines', () => {
  it.skipIf(!pytestEnv)(
    'the real test asserting through a helper is kept for the mutant it kills; a smoke test of the same lines is still dropped',
    async () => {
      const repo = genProject(
        { ...pytestBase(pytestEnv), 'tests/helpers.py': 'def check(fn, x, want):\n    assert fn(x) is want\n' },
        { 'calc.py': `${fns}\n` },
      );
      const imports = `from calc import ${Array.from({ length: 30 }, (_, i) => `f${i}`).join(', ')}`;
      const agent = mkdtempSync(join(tmpdir(), 'fixcycle-files-agent-'));
      const plan = {
        target: 'calc.py:f2',
        rounds: [
          {
            'tests/test_calc.py': `${imports}\n\n\ndef test_all():\n${calls}\n`,
            'tests/test_calc_helper.py':
              'from calc import f2\nfrom helpers import check\n\n\ndef test_f2_bounds():\n    check(f2, 3, True)\n    check(f2, 2, False)\n',
            'tests/test_calc_smoke.py':
              'from calc import f2\n\n\ndef test_f2_runs():\n    result = f2(3)\n    print(result)\n',
          },
        ],
      };
      writeFileSync(join(agent, 'plan.json'), JSON.stringify(plan));
      const { out, exitCode, state, committed } = await runGen(
        repo,
        `${process.execPath} ${AGENT} ${agent} ${join(agent, 'plan.json')}`,
      );
      const reasons = state.rejected.map((r: any) => `${r.test}: ${r.reason}`).join('\n');
      expect(exitCode, out).toBe(0);
      const kept = new Map(state.kept.map((k: any) => [k.test, k.note]));
      expect([...kept.keys()].sort(), reasons).toEqual([
        'tests/test_calc.py::test_all',
        'tests/test_calc_helper.py::test_f2_bounds',
      ]);
      expect(kept.get('tests/test_calc_helper.py::test_f2_bounds')).toMatch(
        /kills 1 of \d+ mutant\(s\)[^]*calc\.py:10 x > 2 -> x <= 2/,
      );
      const smoke = state.rejected.find((r: any) => r.test === 'tests/test_calc_smoke.py::test_f2_runs');
      // It met the mutants on its own line too (more than the 4 run for all), and passed on each.
      expect(smoke?.reason).toMatch(/checks nothing: it killed none of the ([5-9]|\d\d) mutants[^]*asserts nothing/);
      expect(committed).toEqual(['tests/test_calc.py', 'tests/test_calc_helper.py']);
    },
    480_000,
  );
});
