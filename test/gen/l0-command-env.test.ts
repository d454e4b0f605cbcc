import { afterAll, describe, expect, it } from 'vitest';
import { makeRepo, removeRepos } from '../helpers/repo.js';
import { projectChecks } from '../../src/engine/gen/l0/project-checks.js';
import { resolveRunner } from '../../src/engine/runners/index.js';

afterAll(removeRepos);

// A project whose tests import `calc` from lib/, found only through the PYTHONPATH its test command sets.
const files = {
  'lib/calc.py': 'def add(a, b):\n    return a + b\n',
  'tests/test_calc.py': 'from calc import add, multiply\n\n\ndef test_add():\n    assert add(1, 2) == 3\n',
  'tests/test_ok.py': 'from calc import add\n\n\ndef test_add():\n    assert add(2, 2) == 4\n',
};

describe("L0 reads Python imports with the variables the user's test command sets", () => {
  it('`PYTHONPATH=lib python3 -m pytest`: the runner carries the variable, and L0 resolves calc through it', async () => {
    const repo = makeRepo(null, files);
    const runner = await resolveRunner(repo, { testCmd: 'PYTHONPATH=lib python3 -m pytest' });
    const env = runner.describe().env ?? {};
    expect(env.PYTHONPATH).toBe('lib');
    const tests = ['tests/test_calc.py', 'tests/test_ok.py'];
    const lines = (run: Awaited<ReturnType<typeof projectChecks>>) =>
      run.findings.map((f) => `${f.check} ${f.file}:${f.line} ${f.message}`);
    // With the command's variables: calc resolves, and only the name it does not define is a finding.
    expect(lines(await projectChecks(repo, tests, 60_000, undefined, 'python3', env))).toEqual([
      'export tests/test_calc.py:1 imports { multiply } from "calc", which lib/calc.py does not define',
    ]);
    // Without them, as before: calc is no module at all, in the good file too.
    expect(lines(await projectChecks(repo, tests, 60_000, undefined, 'python3'))).toEqual([
      'import tests/test_calc.py:1 imports from "calc", a module that does not exist here',
      'import tests/test_ok.py:1 imports from "calc", a module that does not exist here',
    ]);
  });
});
