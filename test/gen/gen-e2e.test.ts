import { existsSync, lstatSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listlibFeatureRepo } from '../helpers/gen-run.js';
import { afterAll, describe, expect, it } from 'vitest';
import { execa, git, readJson, removeRepos, ROOT, runCli } from '../helpers/repo.js';
import { mkdtempSync } from 'node:fs';
import { activeDir } from '../../src/engine/session/paths.js';

afterAll(removeRepos);

const AGENT = join(ROOT, 'test/fixtures/agents/gen-agent.mjs');

function agentDir(): string {
  return mkdtempSync(join(tmpdir(), 'fixcycle-gen-agent-'));
}

const agentCmd = (dir: string, mode = 'standard') => `${process.execPath} ${AGENT} ${dir} ${mode}`;

function sessionOf(repo: string): string {
  const root = activeDir(repo);
  return join(root, readdirSync(root)[0]!);
}

describe('fixcycle gen, end to end with a stand-in agent', () => {
  it('generates, rejects (L0, flaky, redundant) with reasons, reaches the coverage target, fixes the bug and commits the kept tests', async () => {
    const repo = listlibFeatureRepo();
    const agent = agentDir();
    const run = await runCli(repo, ['gen', '--headless', '--agent-cmd', agentCmd(agent)], { timeoutMs: 360_000 });
    const out = run.stdout + run.stderr;
    expect(run.exitCode, out).toBe(0);
    // gen's session folder, like run's, lives in the git directory: a linter globbing the tree never sees it.
    expect(lstatSync(join(repo, '.workflow')).isSymbolicLink()).toBe(true);

    // Phases 1-4 wrote their files.
    const dir = sessionOf(repo);
    expect(readJson(join(dir, 'workflow-session.json'))).toMatchObject({
      type: 'test',
      input_mode: 'change',
      source_session_id: null,
    });
    const pkg = readJson(join(dir, '.process/test-context-package.json'));
    expect(pkg.changed_files.map((f: any) => f.file)).toEqual(['src/listutil.js']);
    expect(pkg.changed_files[0].tests_reaching).toEqual([]);
    expect(pkg.conventions).toMatchObject({ naming: '<name>.test.js', module_system: 'esm' });
    expect(pkg.conventions.assertion_style).toMatch(/node:assert/);
    expect(pkg.coverage.files[0]).toMatchObject({ file: 'src/listutil.js', lines: 0 });
    expect(readFileSync(join(dir, '.process/TEST_ANALYSIS_RESULTS.md'), 'utf8')).toMatch(/src\/listutil.js:chunk/);
    for (const f of [
      'IMPL_PLAN.md',
      'TODO_LIST.md',
      '.task/IMPL-001.json',
      '.task/IMPL-001.3-validation.json',
      '.task/IMPL-001.5-review.json',
      '.task/IMPL-002.json',
    ])
      expect(existsSync(join(dir, f)), f).toBe(true);
    expect(readFileSync(join(agent, 'calls.log'), 'utf8').split('\n')[0]).toBe('analyze test-analysis');

    // Round 1: the hallucinated import and the test without assertion are rejected by IMPL-001.3, visibly.
    expect(out).toMatch(/\[IMPL-001\.3\] failed: round 1: 1 critical finding\(s\)/);
    expect(out).toMatch(
      /imports \{ flatten \} from "\.\.\/src\/listutil\.js", which src\/listutil\.js does not export/,
    );
    // A test without assertion is L0's warning, a hint for the quality gate's runs, never a rejection by itself.
    expect(readJson(join(dir, '.process/l0-round-1.json')).findings).toContainEqual(
      expect.objectContaining({
        severity: 'warning',
        check: 'no-assertion',
        message: 'test "clamp handles values" asserts nothing',
      }),
    );
    // The findings went back to the agent in round 2's prompt.
    expect(readFileSync(join(agent, 'prompt-generate-2.txt'), 'utf8')).toMatch(/failed code validation[\s\S]*flatten/);
    expect(out).toMatch(/\[IMPL-001\.3\] done: round 2/);

    // IMPL-001.5: the flaky test dropped, a redundant one reported, each with its reason.
    const state = readJson(join(dir, '.process/gen-state.json'));
    const rejected = state.rejected.map((r: any) => `${r.gate} ${r.test}: ${r.reason}`);
    expect(rejected.find((r: string) => r.includes('clamp stays within its time budget'))).toMatch(
      /IMPL-001\.5 .*flaky: passed 3 of 5 runs/,
    );
    // A copy (no new line or branch, no assertion a kept test does not make) is no reason to drop a real test:
    // it kills a mutant of the changed lines, so it checks something, and it is kept, the runs cited.
    expect(rejected.filter((r: string) => /redundant/.test(r))).toEqual([]);
    const copy = state.kept.filter((k: any) =>
      /clamp (returns the value when it is already in range|returns an in-range value unchanged)/.test(k.test),
    );
    expect(copy.length, JSON.stringify(state.kept)).toBe(2);
    expect(copy.map((k: any) => k.note).join('\n')).toMatch(/kills \d+ of \d+ mutant\(s\) of the changed lines/);
    // The same assertion statement over another value checks something else: kept, and said to add no coverage.
    const sameShape = state.kept.find((k: any) => k.test.includes('clamp keeps a value just above the lower bound'));
    expect(sameShape?.note, JSON.stringify(state.kept)).toMatch(/adds no coverage; kept for its own assertions/);
    expect(state.kept.some((k: any) => k.test.includes('clamp keeps a value on the upper bound'))).toBe(true);
    expect(out).toMatch(/flaky: passed 3 of 5 runs/);
    const chunkTest = state.kept.find((k: any) => k.test.includes('chunk splits into chunks'));
    expect(chunkTest.note).toMatch(/fails all 5 runs: kept for the fix loop/);

    // Coverage of the new module rose to the target.
    expect(out).toMatch(/\[coverage\] src\/listutil\.js: lines 0% → (\d+(\.\d)?)% \(target 80%\)/);
    const after = Number(/lines 0% → ([\d.]+)%/.exec(out)![1]);
    expect(after).toBeGreaterThanOrEqual(80);

    // The kept tests are committed (the flaky and redundant ones are gone from the files), then the fix loop converges.
    const subjects = git(repo, 'log', '--format=%s').split('\n');
    expect(subjects[0]).toMatch(/^test-cycle: iteration 1 - conservative strategy \(pass: [\d.]+% → 100%\)/);
    expect(subjects[1]).toMatch(/^test-gen: IMPL-001 - \d+ generated test\(s\) kept/);
    expect(git(repo, 'show', '--name-only', '--format=', 'HEAD~1').trim().split('\n').sort()).toEqual([
      'test/listutil-more.test.js',
      'test/listutil.test.js',
    ]);
    const committed = git(repo, 'show', 'HEAD~1:test/listutil-more.test.js');
    expect(committed).not.toMatch(/time budget/);
    expect(git(repo, 'show', '--name-only', '--format=', 'HEAD').trim()).toBe('src/listutil.js');
    expect(readFileSync(join(repo, 'src/listutil.js'), 'utf8')).toMatch(/list\.slice\(i, i \+ size\)\)/);
    expect(git(repo, 'status', '--porcelain')).toBe('');
    expect(readJson(join(dir, '.process/iteration-state.json')).status).toBe('completed');
    const summary = readFileSync(join(dir, '.summaries/gen-summary.md'), 'utf8');
    expect(summary).toMatch(/\| src\/listutil\.js \| 0% → /);
    expect(summary).toMatch(/## Expansion suggestions[\s\S]*- test:[\s\S]*- enhance:[\s\S]*- refactor:[\s\S]*- doc:/);
  }, 420_000);

  it('--keep-redundant changes nothing for a copy that kills a mutant: it is kept and committed either way', async () => {
    const repo = listlibFeatureRepo();
    const agent = agentDir();
    const run = await runCli(repo, ['gen', '--headless', '--keep-redundant', '--agent-cmd', agentCmd(agent)], {
      timeoutMs: 360_000,
    });
    const out = run.stdout + run.stderr;
    expect(run.exitCode, out).toBe(0);
    const state = readJson(join(sessionOf(repo), '.process/gen-state.json'));
    expect(
      state.rejected.some((r: any) => /redundant/.test(r.reason)),
      JSON.stringify(state.rejected),
    ).toBe(false);
    expect(state.redundant_kept).toEqual([]);
    const committed = git(repo, 'show', 'HEAD~1:test/listutil-more.test.js');
    expect(committed).toMatch(
      /clamp returns the value when it is already in range[\s\S]*clamp returns an in-range value unchanged/,
    );
  }, 420_000);

  it('rejects and reverts a generation that touches source, and aims one more round at the uncovered lines', async () => {
    const repo = listlibFeatureRepo();
    const agent = agentDir();
    const run = await runCli(
      repo,
      ['gen', '--headless', '--coverage-lines', '95', '--agent-cmd', agentCmd(agent, 'gap')],
      { timeoutMs: 360_000 },
    );
    const out = run.stdout + run.stderr;
    expect(run.exitCode, out).toBe(0);
    expect(out).toMatch(
      /\[IMPL-001\] failed: round 1 rejected and reverted: the generation changed source files \(src\/listutil\.js\)/,
    );
    // The agent's own fix was undone: the bug was still there for the fix loop to fix.
    expect(readFileSync(join(agent, 'prompt-generate-2.txt'), 'utf8')).toMatch(
      /rejected and reverted[\s\S]*changed source files/,
    );
    expect(out).toMatch(/\[IMPL-001\.5\] failed: .*below the coverage targets: one more generate round/);
    const round3 = readFileSync(join(agent, 'prompt-generate-3.txt'), 'utf8');
    expect(round3).toMatch(
      /changed lines the kept tests leave uncovered[\s\S]*src\/listutil\.js: [\d.]+% lines \(target 95%\).*uncovered lines \d+/,
    );
    expect(out).toMatch(
      /\[IMPL-001\] done: round 3: gen-agent wrote 1 test file\(s\): test\/listutil-truncate\.test\.js/,
    );
    const final = [...out.matchAll(/\[coverage\] src\/listutil\.js: lines 0% → ([\d.]+)%/g)].map((m) => Number(m[1]));
    expect(final).toHaveLength(2);
    expect(final[0]).toBeLessThan(95);
    expect(final[1]).toBeGreaterThanOrEqual(95);
    const subjects = git(repo, 'log', '--format=%s').split('\n');
    expect(subjects[0]).toMatch(/^test-cycle: iteration 1 /);
    expect(git(repo, 'show', '--name-only', '--format=', 'HEAD~1').trim().split('\n').sort()).toEqual([
      'test/listutil-truncate.test.js',
      'test/listutil.test.js',
    ]);
  }, 420_000);

  it('after 3 L0 rounds drops what still fails and goes on with the rest; below target it says so', async () => {
    const repo = listlibFeatureRepo();
    const agent = agentDir();
    const run = await runCli(
      repo,
      ['gen', '--headless', '--agent-cmd', agentCmd(agent, 'stubborn'), '--max-iterations', '1'],
      { timeoutMs: 180_000 },
    );
    const out = run.stdout + run.stderr;
    // Three L0 rounds, the drop, one round aimed at coverage, and its own three L0 rounds.
    expect(out.match(/\[IMPL-001\.3\] failed: round \d: 1 critical finding\(s\)/g)).toHaveLength(6);
    expect(
      out.match(
        /IMPL-001\.3: 3 rounds used; dropped what still fails L0: test\/listutil\.test\.js: "chunk and truncate run"/g,
      ),
    ).toHaveLength(2);
    expect(readFileSync(join(agent, 'calls.log'), 'utf8').match(/^generate /gm)).toHaveLength(6);
    expect(out).toMatch(
      /\[IMPL-001\.5\] done: 1 kept, 0 dropped; still below target: src\/listutil\.js: [\d.]+% lines \(target 80%\)/,
    );
    expect(run.exitCode, out).toBe(0);
    const committed = git(repo, 'show', 'HEAD:test/listutil.test.js');
    expect(committed).toMatch(/clamp keeps a value inside the range/);
    expect(committed).not.toMatch(/chunk and truncate run/);
  }, 240_000);

  it('an analysis without valid JSON from every agent stops with one line naming the transcript (exit 1), resumable', async () => {
    const repo = listlibFeatureRepo();
    const agent = agentDir();
    const run = await runCli(repo, ['gen', '--headless', '--agent-cmd', agentCmd(agent, 'mute')]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(
      /no agent produced a valid test analysis \(gen-agent: invalid_plan \(no JSON object in the answer\)\): see .*test-analysis-cli-output\.txt, then resume with `fixcycle run --resume-session WFS-test-/,
    );
    expect(run.stdout).toMatch(/\[analysis\] failed/);
  }, 120_000);

  it('--plan-only stops after phase 4, and run --resume-session carries on without redoing a phase', async () => {
    const repo = listlibFeatureRepo();
    const agent = agentDir();
    const plan = await runCli(repo, ['gen', '--plan-only', '--headless', '--agent-cmd', agentCmd(agent)], {
      timeoutMs: 120_000,
    });
    expect(plan.exitCode, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stdout).toMatch(/--plan-only: continue with `fixcycle run --resume-session WFS-test-/);
    const dir = sessionOf(repo);
    expect(existsSync(join(dir, '.task/IMPL-002.json'))).toBe(true);
    expect(existsSync(join(dir, '.process/iteration-state.json'))).toBe(false);
    expect(readFileSync(join(agent, 'calls.log'), 'utf8').trim().split('\n')).toEqual(['analyze test-analysis']);

    const resumed = await runCli(repo, ['run', '--resume-session', '--headless', '--agent-cmd', agentCmd(agent)], {
      timeoutMs: 180_000,
    });
    expect(resumed.exitCode, resumed.stdout + resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(/\[analysis\] done: done earlier \(resumed\)/);
    // The analysis ran once: the resume started at IMPL-001.
    const calls = readFileSync(join(agent, 'calls.log'), 'utf8').trim().split('\n');
    expect(calls.filter((c) => c === 'analyze test-analysis')).toHaveLength(1);
    expect(calls[1]).toBe('generate IMPL-001');
    expect(readJson(join(dir, '.process/iteration-state.json')).status).toBe('completed');
  }, 240_000);

  it('two gens started at the same moment get a session each; one refused for a dirty tree leaves none behind', async () => {
    const repo = listlibFeatureRepo();
    const agent = agentDir();
    const gen = () =>
      runCli(repo, ['gen', '--plan-only', '--headless', '--agent-cmd', agentCmd(agent)], { timeoutMs: 120_000 });
    const [first, second] = await Promise.all([gen(), gen()]);
    expect(first.exitCode, first.stdout + first.stderr).toBe(0);
    expect(second.exitCode, second.stdout + second.stderr).toBe(0);
    const sessions = readdirSync(activeDir(repo)).sort();
    expect(sessions).toHaveLength(2);
    for (const id of sessions) expect(existsSync(join(activeDir(repo), id, '.task/IMPL-002.json')), id).toBe(true);

    writeFileSync(
      join(repo, 'src/listutil.js'),
      readFileSync(join(repo, 'src/listutil.js'), 'utf8') + '\n// work in progress\n',
    );
    const refused = await gen();
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/uncommitted changes \(src\/listutil\.js\).*--allow-dirty/);
    expect(readdirSync(activeDir(repo)).sort()).toEqual(sessions);
  }, 240_000);

  it('--json prints one event per phase, each a JSON line', async () => {
    const repo = listlibFeatureRepo();
    const agent = agentDir();
    const run = await runCli(repo, ['gen', '--plan-only', '--json', '--agent-cmd', agentCmd(agent)], {
      timeoutMs: 120_000,
    });
    expect(run.exitCode, run.stderr).toBe(0);
    const events = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const gen = events.filter((e) => e.type === 'gen');
    for (const node of ['session', 'context', 'analysis', 'tasks']) {
      const statuses = gen.filter((e) => e.node === node).map((e) => e.status);
      // A phase may report sub-steps while it runs (context: measuring coverage), then ends once.
      expect(statuses[0]).toBe('running');
      expect(statuses.filter((st) => st === 'done')).toHaveLength(1);
      expect(statuses.at(-1)).toBe('done');
    }
    expect(gen.at(-1)).toMatchObject({ node: 'execution', status: 'pending' });
    expect(events.at(-1)).toMatchObject({ type: 'done', exitCode: 0 });
    expect(events.some((e) => e.type === 'agent' && e.status === 'finished' && e.classification === 'ok')).toBe(true);
  }, 120_000);

  it('says in one line, exit 2, when the input names nothing, a session does not exist, or has no completed task', async () => {
    const repo = listlibFeatureRepo();
    const agent = agentDir();
    const cases: [string[], RegExp][] = [
      [['gen', 'cover the quantum flux capacitor'], /names nothing to test/],
      [
        ['gen', 'WFS-impl-missing'],
        /session WFS-impl-missing does not exist in \.workflow\/active or \.workflow\/archives/,
      ],
      [['gen', 'notes.md'], /notes\.md does not exist/],
    ];
    for (const [args, message] of cases) {
      const r = await runCli(repo, [...args, '--headless', '--agent-cmd', agentCmd(agent)]);
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(message);
    }
    const session = join(repo, '.workflow/active/WFS-impl-1/.task');
    await execa('mkdir', ['-p', session]);
    await execa('sh', ['-c', `echo '{"id":"IMPL-1","status":"pending","title":"listutil"}' > ${session}/IMPL-1.json`]);
    const r = await runCli(repo, ['gen', 'WFS-impl-1', '--headless', '--agent-cmd', agentCmd(agent)]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/session WFS-impl-1 has no completed task/);
  }, 120_000);
});
