import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { decideDrop } from '../../src/engine/gen/decide-drop.js';
import { resolveRunner } from '../../src/engine/runners/index.js';
import { makeRepo, removeRepos } from '../helpers/repo.js';

afterAll(removeRepos);

// A real test the runner skips in every run is dropped (it proves nothing here), and the drop says why the runner
// skipped it: jmespath's test_compliance.py parametrizes over compliance data its package does not ship (pytest:
// "got empty parameter set"), toml's numpy tests skip without numpy. "focused or skipped" alone reads as if the
// test were marked so.
const pytest = spawnSync('/usr/bin/python3', ['-c', 'import pytest'], { stdio: 'ignore' }).status === 0;

describe('a test the runner skips in every run', () => {
  it.skipIf(!pytest)(
    "pytest (skipped without Debian's python3-pytest at /usr/bin/python3): the drop cites the runner's reason",
    async () => {
      const repo = makeRepo(null, {
        'tests/test_cases.py': [
          'import os',
          'import pytest',
          '',
          'CASES = os.path.join(os.path.dirname(__file__), "compliance")',
          '',
          'def cases():',
          '    if os.path.isdir(CASES):',
          '        for name in os.listdir(CASES):',
          '            yield name',
          '',
          '@pytest.mark.parametrize("name", cases())',
          'def test_case(name):',
          '    assert name',
          '',
          'def test_numpy_floats():',
          '    np = pytest.importorskip("fixcycle_absent_numpy")',
          '    assert np',
          '',
          'def test_runs():',
          '    assert 1 + 1 == 2',
          '',
        ].join('\n'),
      });
      const runner = await resolveRunner(repo, { testCmd: '/usr/bin/python3 -m pytest' });
      const run = await runner.run({ cwd: repo, scope: 'full', timeoutMs: 120_000 });
      const byName = new Map(run.result.tests.map((t) => [t.name.replace(/\[.*$/, ''), t]));
      expect(byName.get('test_case')).toMatchObject({
        status: 'skipped',
        skipReason: expect.stringMatching(/got empty parameter set/),
      });
      expect(byName.get('test_numpy_floats')).toMatchObject({
        status: 'skipped',
        skipReason: expect.stringMatching(/could not import 'fixcycle_absent_numpy'/),
      });
      expect(byName.get('test_runs')?.skipReason).toBeUndefined();

      const verdict = decideDrop({
        collected: true,
        statuses: Array(5).fill('skipped'),
        runs: 5,
        message: byName.get('test_case')!.skipReason!,
      });
      expect(verdict).toMatchObject({ keep: false, kind: 'skipped' });
      if (!verdict.keep)
        expect(verdict.reason).toMatch(
          /^focused or skipped: the runner reports it skipped in all 5 runs \(got empty parameter set .*\), so it proves nothing$/,
        );
    },
  );

  it('without a reason from the runner, the drop says only what it saw', () => {
    const verdict = decideDrop({ collected: true, statuses: Array(5).fill('skipped'), runs: 5 });
    expect(verdict).toMatchObject({
      keep: false,
      kind: 'skipped',
      reason: 'focused or skipped: the runner reports it skipped in all 5 runs, so it proves nothing',
    });
  });
});
