import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fromCsv } from '../../src/engine/team/tasks-csv.js';
import { git, removeRepos, runCli } from '../helpers/repo.js';
import { agentDir, teamAgentCmd, teamRepo, teamSession } from './team-helpers.js';

afterAll(removeRepos);

// The user's change holds work in progress (a function that throws "not implemented"): L0 finds it in the changed
// code, which generation may not change. As in gen, it is reported, never sent back to the generator as a round.
describe('team: an L0 finding in the changed code is the project’s own', () => {
  it('a placeholder in the change is reported in the generator task, and no generator round is asked to fix it', async () => {
    const repo = teamRepo();
    appendFileSync(
      join(repo, 'src/text/slug.js'),
      "\nexport function transliterate(text) {\n  throw new Error('not implemented');\n}\n",
    );
    git(repo, 'commit', '-q', '-am', 'transliterate: to do');
    const agent = agentDir();
    const run = await runCli(repo, ['team', '--headless', '-y', '--agent-cmd', teamAgentCmd(agent)], {
      timeoutMs: 240_000,
    });
    const out = run.stdout + run.stderr;
    expect(run.exitCode, out).toBe(0);
    const tasks = Object.fromEntries(
      fromCsv(readFileSync(join(teamSession(repo), 'tasks.csv'), 'utf8')).map((t) => [t.id, t]),
    );
    expect(tasks['TESTGEN-001']!.status).toBe('completed');
    expect(tasks['TESTGEN-001']!.findings).toMatch(
      /round 1; the changed code: 1 error\(s\), reported \(src\/text\/slug\.js:\d+: throws "not implemented"/,
    );
    const prompts = readdirSync(agent).filter((n) => n.startsWith('prompt-TESTGEN-'));
    expect(prompts.length).toBeGreaterThan(0);
    for (const p of prompts) expect(readFileSync(join(agent, p), 'utf8')).not.toMatch(/failed code validation \(L0\)/);
  }, 300_000);
});
