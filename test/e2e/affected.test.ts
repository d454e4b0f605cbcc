import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error a plain ES module shared with the bench, without type declarations
import { generateModules } from '../fixtures/generate-modules.mjs';
import {
  agentCmd,
  git,
  makeRepo,
  readJson,
  removeRepos,
  runCli,
  scenario,
  sessionDir,
  state,
} from '../helpers/repo.js';
import { plan } from './plans.js';

afterAll(removeRepos);

// Three runs of 60 test files and two agent calls: about 30 s on a quiet machine, past a minute at load 16.
describe('affected tests during iterations', { timeout: 180_000 }, () => {
  it('re-runs only the tests of the module a fix touched (and its importers), then validates with the full suite', async () => {
    const repo = makeRepo(null, { 'README.md': '# many modules\n' });
    generateModules(repo, 60);
    // Break m39, which m40 and m41 import: six tests fail; m42 starts a new chain and is unaffected.
    writeFileSync(join(repo, 'src/m39.js'), readFileSync(join(repo, 'src/m39.js'), 'utf8').replace('x + 39', 'x + 40'));
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'modules');
    const agent = scenario({
      analyze: [
        { plan: plan('value39 adds 40 instead of its own offset 39', 'src/m39.js:value39:1-3', 'return x + 39') },
      ],
      fix: [{ edits: [{ file: 'src/m39.js', search: 'x + 40', replace: 'x + 39' }] }],
    });
    const run = await runCli(repo, ['run', '--headless', '--agent-cmd', agentCmd(agent.path)]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    const iteration = state(repo).iterations[0];
    expect(iteration.tests_run_reason).toMatch(/m39/);
    const ran: string[] = iteration.tests_run;
    expect(ran).toHaveLength(6);
    expect(ran.every((id) => /value(39|40|41)\b/.test(id))).toBe(true);
    // Success came from a full run, not from the affected one.
    expect(readJson(join(sessionDir(repo), '.process/test-results.json'))).toMatchObject({
      scope: 'full',
      total: 120,
      pass_rate: 100,
    });
    expect(run.stdout).toMatch(/\[validation\] done: pass 100% \(120\/120\)/);
  });
});
