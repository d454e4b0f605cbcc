import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
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
import { editAdd, editMultiply, plan, planAdd, planMultiply } from './plans.js';

afterAll(removeRepos);

const CALC = 'projects-loop/calc';

/**
 * Makes one failing add test pass (a + |b|) and pads with spaces, breaking three pad tests that passed:
 * 15 of 20 → 13 of 20, a drop of 10 points, within the pass-rate rule.
 */
const editsBreakPad = [
  { file: 'src/calc.js', search: 'return a - b;', replace: 'return a + Math.abs(b);' },
  { file: 'src/format.js', search: "padStart(width, '0')", replace: "padStart(width, ' ')" },
];
const BROKEN = ['pad > pads 1 to 3', 'pad > pads 123 to 5', 'pad > pads 0 to 2'];

describe('a fix that breaks a passing test', () => {
  it('is rolled back as a regression however small the drop, and the next, surgical prompt names the tests it broke', async () => {
    const repo = makeRepo(CALC);
    const agent = scenario({
      analyze: [{ plan: plan('add() subtracts', 'src/calc.js:add:1-3', 'add the magnitude') }, planAdd, planMultiply],
      fix: [{ edits: editsBreakPad }, { edits: [editAdd] }, { edits: [editMultiply] }],
    });
    const run = await runCli(repo, [
      'run',
      '--headless',
      '--test-cmd',
      'node --test',
      '--agent-cmd',
      agentCmd(agent.path),
    ]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);

    const s = state(repo);
    expect(s.iterations[0]).toMatchObject({
      iteration: 1,
      pass_rate_before: 75,
      pass_rate: 65,
      result: 'regressed_rolled_back',
    });
    expect([...s.iterations[0].broken_tests].sort()).toEqual([...BROKEN].sort());
    expect(s.iterations[0].note).toMatch(/broke 3 test\(s\) that passed before it/);
    expect(s.iterations[1]).toMatchObject({ iteration: 2, strategy: 'surgical' });
    expect(s.status).toBe('completed');

    // The fix is undone in the tree: padding is back to zeros, and the rollback commit says why.
    const subjects = git(repo, 'log', '--format=%s').split('\n');
    expect(subjects).toContain(
      'test-cycle: rollback iteration 1 - regression detected (broke 3 passing test(s); pass: 75% → 65%)',
    );
    expect(git(repo, 'show', 'HEAD:src/format.js')).toContain("padStart(width, '0')");

    const prompt = agent.prompt('agent', 'analyze', 2);
    for (const id of BROKEN) expect(prompt).toContain(id);
    expect(prompt).toMatch(/keep them passing/);
    const history = readJson(join(sessionDir(repo), '.process/fix-history.json'));
    expect(history[0]).toMatchObject({ outcome: 'regressed_rolled_back', pass_rate_before: 75, pass_rate_after: 65 });
    expect(history[0].broken_tests).toHaveLength(3);
  });
});
