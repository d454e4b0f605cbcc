// `+` and `-` while a loop runs, as a pane sends them: an intent in the session's intents file, applied by the
// process driving the loop (here a real headless `fixcycle run` on a real repository with the scripted agent), which
// records the new max in iteration-state.json and goes on, or stops, by it. Needs `npm run build`.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { appendIntent } from '../../src/engine/intents/intent-file.js';
import { activeDir } from '../../src/engine/session/paths.js';
import { agentCmd, makeRepo, removeRepos, runCli, scenario, state } from '../helpers/repo.js';
import { editAdd, editMultiply, planAdd, planMultiply } from './plans.js';

afterAll(removeRepos);

const CALC = 'projects-loop/calc';

/** A real headless run whose first fix takes 3 s (a pane's intent arrives while it runs), with `max` iterations. */
function slowFirstFix(max: number): { repo: string; run: ReturnType<typeof runCli> } {
  const repo = makeRepo(CALC);
  const agent = scenario({
    analyze: [planAdd, planMultiply],
    fix: [{ edits: [editAdd], sleepMs: 3000 }, { edits: [editMultiply] }],
  });
  const args = ['run', '--headless', '--in-place', '--test-cmd', 'node --test', '--max-iterations', String(max)];
  return { repo, run: runCli(repo, [...args, '--agent-cmd', agentCmd(agent.path)]) };
}

/** The session folder once the run has made it, and its state once iteration `n` has started. */
async function whenIterationStarts(repo: string, n: number): Promise<{ id: string; dir: string }> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (existsSync(activeDir(repo))) {
      const id = readdirSync(activeDir(repo))[0];
      if (id) {
        const dir = join(activeDir(repo), id);
        try {
          const s = JSON.parse(readFileSync(join(dir, '.process/iteration-state.json'), 'utf8'));
          if (s.current_iteration >= n) return { id, dir };
        } catch {
          // not written yet, or half-written: read again
        }
      }
    }
    if (Date.now() > deadline) throw new Error(`iteration ${n} never started`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the iteration budget changed while the loop runs', () => {
  it('+ gives a run limited to one iteration a second one, recorded in the session, and it converges', async () => {
    const { repo, run } = slowFirstFix(1);
    const { id, dir } = await whenIterationStarts(repo, 1);
    await appendIntent(dir, id, 'more-iterations', 'test pane');
    const done = await run;
    expect(done.exitCode, done.stdout + done.stderr).toBe(0);
    expect(done.stdout).toContain('more-iterations from test pane: max iterations changed');
    const s = state(repo);
    expect(s.max_iterations).toBe(2);
    expect(s.iterations.map((i: { result: string }) => i.result)).toEqual(['improved', 'improved']);
    expect(s.status).toBe('completed');
  }, 120_000);

  it('- never goes below the iteration running, and says so in the record', async () => {
    const { repo, run } = slowFirstFix(2);
    const { id, dir } = await whenIterationStarts(repo, 1);
    await appendIntent(dir, id, 'fewer-iterations', 'pane one');
    await appendIntent(dir, id, 'fewer-iterations', 'pane two');
    const done = await run;
    const s = state(repo);
    // The first - takes the budget to 1; the second is refused: iteration 1 has started.
    expect(s.max_iterations).toBe(1);
    expect(s.iterations).toHaveLength(1);
    expect(done.exitCode).not.toBe(0);
    const notes = (s.intents as { by: string; applied: boolean; note: string }[]).map((r) => [r.by, r.applied, r.note]);
    expect(notes).toEqual([
      ['pane one', true, 'max iterations changed'],
      ['pane two', false, expect.stringContaining('iteration 1 has started: the loop cannot stop before it')],
    ]);
  }, 120_000);
});
