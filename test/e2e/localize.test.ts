import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agentCmd, makeRepo, readJson, removeRepos, runCli, scenario, sessionDir } from '../helpers/repo.js';
import { editAdd, planAdd } from './plans.js';

afterAll(removeRepos);

const CALC = 'projects-loop/calc';
const base = ['run', '--headless', '--json', '--test-cmd', 'node --test', '--max-iterations', '1'];
const events = (stdout: string): any[] =>
  stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l));

describe('suspects in the loop', () => {
  it('ranks suspects before the analysis: in the prompt, the failures JSON, the analysis record and the --json events', async () => {
    const repo = makeRepo(CALC);
    const agent = scenario({ analyze: [planAdd], fix: [{ edits: [editAdd] }] });
    const run = await runCli(repo, [...base, '--agent-cmd', agentCmd(agent.path)]);
    const all = events(run.stdout);
    const suspects = all.find((e) => e.type === 'suspects');
    expect(suspects, run.stdout + run.stderr).toBeDefined();
    expect(suspects.localization.used).toContain('coverage');
    const named = suspects.localization.suspects.map((s: any) => `${s.file}:${s.function}`);
    expect(named).toEqual(expect.arrayContaining(['src/calc.js:add', 'src/calc.js:multiply']));

    const prompt = agent.prompt('agent', 'analyze', 1);
    expect(prompt).toMatch(/## Suspects\nFrom [^\n]*coverage spectra \(/);
    expect(prompt).toMatch(/\d\. src\/calc\.js:add:1-3: /);

    const dir = sessionDir(repo);
    expect(readJson(join(dir, '.process/iteration-1-failures.json')).localization.suspects.length).toBeGreaterThan(0);
    const analysis = readFileSync(join(dir, '.process/iteration-1-analysis.md'), 'utf8');
    expect(analysis).toMatch(/## Suspects\nEvidence used: coverage spectra/);
    // The plan names add(), one of the suspects: no warning about it.
    expect(analysis).not.toMatch(/outside every suspect/);
  }, 120_000);

  it('--no-localize leaves the prompt as it was and emits no suspects', async () => {
    const repo = makeRepo(CALC);
    const agent = scenario({ analyze: [planAdd], fix: [{ edits: [editAdd] }] });
    const run = await runCli(repo, [...base, '--no-localize', '--agent-cmd', agentCmd(agent.path)]);
    expect(events(run.stdout).some((e) => e.type === 'suspects')).toBe(false);
    expect(agent.prompt('agent', 'analyze', 1)).not.toMatch(/## Suspects/);
  }, 120_000);

  it('warns in the record when the plan changes none of the suspects', async () => {
    const repo = makeRepo(CALC);
    const elsewhere = { plan: { ...planAdd.plan, modification_points: ['src/format.js:pad:1-3'] } };
    const agent = scenario({ analyze: [elsewhere], fix: [{ edits: [editAdd] }] });
    await runCli(repo, [...base, '--agent-cmd', agentCmd(agent.path)]);
    expect(readFileSync(join(sessionDir(repo), '.process/iteration-1-analysis.md'), 'utf8')).toMatch(
      /modification points fall outside every suspect/,
    );
  }, 120_000);
});
