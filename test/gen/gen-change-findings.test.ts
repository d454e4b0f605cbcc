import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeRepos, ROOT } from '../helpers/repo.js';
import { genProject, genSession, pytestBase, pytestEnv, runGen } from '../helpers/gen-run.js';

afterAll(removeRepos);

const AGENT = join(ROOT, 'test/fixtures/agents/files-agent.mjs');

// toml's shape: the changed module imports an optional dependency inside a method (`import numpy as np` in
// TomlNumpyEncoder.__init__), not installed here. L0's import check finds it in the changed code, which generation
// may not change: reported, never a round sent back (3 of toml's 6 generate rounds were asked for it alone).
describe('gen: an L0 finding in the changed code is the project’s own', () => {
  it.skipIf(!pytestEnv)(
    'an import of an absent optional module inside a function of the change is reported, never sent back as a round',
    async () => {
      const repo = genProject(pytestBase(pytestEnv), {
        'fmt.py':
          'def dump(v):\n    return "{}".format(v)\n\n\ndef dump_array(v):\n    import fixcycle_absent_numpy as np\n    return dump(np.asarray(v))\n',
      });
      const agent = mkdtempSync(join(tmpdir(), 'fixcycle-files-agent-'));
      const plan = {
        target: 'fmt.py:dump',
        rounds: [
          {
            'tests/test_fmt.py':
              'from fmt import dump\n\n\ndef test_dump_int():\n    assert dump(3) == "3"\n\n\ndef test_dump_text():\n    assert dump("a") == "a"\n',
          },
        ],
      };
      writeFileSync(join(agent, 'plan.json'), JSON.stringify(plan));
      const { out, exitCode, state, committed } = await runGen(
        repo,
        `${process.execPath} ${AGENT} ${agent} ${join(agent, 'plan.json')}`,
      );
      // L0 found it, in its report, on the changed code.
      const l0 = JSON.parse(readFileSync(join(genSession(repo), '.process/l0-round-1.json'), 'utf8'));
      expect(l0.findings.map((f: any) => `${f.file}: ${f.message}`)).toContain(
        'fmt.py: imports "fixcycle_absent_numpy", a module that does not exist here',
      );
      expect(out).toMatch(
        /\[IMPL-001\.3\] done: round 1: 1 file\(s\), 0 critical, \d+ warning\(s\); the changed code: 1 error\(s\), reported \(fmt\.py:6: imports "fixcycle_absent_numpy"/,
      );
      expect(state.rejected.filter((r: any) => r.gate === 'IMPL-001.3')).toEqual([]);
      // No round went back for it (a coverage round may follow: the function needing numpy stays uncovered).
      expect(out).not.toMatch(/\[IMPL-001\.3\] failed/);
      expect(state.l0_rounds, out).toBe(0);
      expect(committed).toEqual(['tests/test_fmt.py']);
      expect(exitCode, out).toBe(0);
    },
    480_000,
  );
});
