import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { prepareDemo, type DemoProject } from '../../src/demo/prepare.js';
import { extractPlan } from '../../src/engine/agents/plan.js';
import { fixPlanSchema, type FixPlan } from '../../src/engine/session/schema.js';
import { callAgent, makeSessionDir, runDemoSuite, type DemoResults } from './demo-suite.js';

/** The plan is the JSON object on stdout, as fixcycle reads it. */
function readPlan(stdout: string): FixPlan {
  const read = extractPlan(stdout);
  if (!read.ok) throw new Error(read.error);
  return fixPlanSchema.parse(read.plan);
}

describe('the scripted demo agent', () => {
  let demo: DemoProject;
  let sessionDir: string;
  // Every fresh copy starts from the same commit, so one real run gives the starting results of all of them.
  let initial: DemoResults;
  beforeAll(async () => {
    const first = await prepareDemo();
    initial = await runDemoSuite(first.repo);
    await first.cleanup();
  });
  beforeEach(async () => {
    demo = await prepareDemo();
    sessionDir = await makeSessionDir(demo.repo);
    await appendFile(join(demo.repo, '.git', 'info', 'exclude'), '.workflow/\n');
  });
  afterEach(() => demo.cleanup());

  it('fixes one bug per iteration through the protocol and brings the suite to 100%', async () => {
    const expected = [
      { point: /^src\/query\.js:parseQuery:\d+-\d+$/, fixes: 2, passedAfter: 34 },
      { point: /^src\/money\.js:toCents:\d+$/, fixes: 4, passedAfter: 38 },
      { point: /^src\/paginate\.js:paginate:\d+$/, fixes: 3, passedAfter: 41 },
    ];
    let results = initial;
    expect(results.passed).toBe(32);

    for (const [index, step] of expected.entries()) {
      const iteration = index + 1;
      const analysis = await callAgent({
        agentCmd: demo.agentCmd,
        repo: demo.repo,
        sessionDir,
        role: 'analyze',
        iteration,
        results,
      });
      expect(analysis.exitCode, analysis.stderr).toBe(0);
      expect(analysis.stderr).toContain('demo agent:');
      const plan = readPlan(analysis.stdout);
      expect(plan.modification_points).toHaveLength(1);
      expect(plan.modification_points[0]).toMatch(step.point);
      expect(plan.confidence_score).toBe(0.85);
      expect(plan.affected_tests).toHaveLength(step.fixes);

      const fix = await callAgent({
        agentCmd: demo.agentCmd,
        repo: demo.repo,
        sessionDir,
        role: 'fix',
        iteration,
        results,
        plan,
      });
      expect(fix.exitCode, fix.stderr).toBe(0);
      expect(fix.stdout).toContain('demo agent: changed');

      const before = new Set(results.failures.map((failure) => failure.id));
      results = await runDemoSuite(demo.repo);
      expect(results.passed).toBe(step.passedAfter);
      // The plan named exactly the tests its fix repaired.
      const repaired = [...before].filter((id) => !results.failures.some((failure) => failure.id === id));
      expect([...plan.affected_tests].sort()).toEqual(repaired.sort());
    }

    expect(results.pass_rate).toBe(100);
    const changed = (await execa('git', ['status', '--porcelain'], { cwd: demo.repo })).stdout
      .split('\n')
      .map((line) => line.slice(3))
      .sort();
    expect(changed).toEqual(['src/money.js', 'src/paginate.js', 'src/query.js']);
  });

  it('refuses to plan, without printing a plan, when no failing test matches a bug it knows', async () => {
    const slug = join(demo.repo, 'src', 'slug.js');
    await writeFile(slug, (await readFile(slug, 'utf8')).replace(".replace(/[\\u0300-\\u036f]/g, '')", ''));
    const results = await runDemoSuite(demo.repo);
    const unknownOnly: DemoResults = {
      ...results,
      failures: results.failures.filter((failure) => failure.id.startsWith('slugify')),
    };
    expect(unknownOnly.failures.length).toBeGreaterThan(0);

    const analysis = await callAgent({
      agentCmd: demo.agentCmd,
      repo: demo.repo,
      sessionDir,
      role: 'analyze',
      iteration: 1,
      results: unknownOnly,
    });

    expect(analysis.exitCode).toBe(1);
    expect(analysis.stdout).toBe('');
    expect(analysis.stderr).toMatch(
      /demo agent: none of the \d+ failing test\(s\) match a bug this scripted demo agent knows/,
    );
  });

  it('refuses to plan when nothing fails', async () => {
    const results: DemoResults = { total: 41, passed: 41, failed: 0, skipped: 0, pass_rate: 100, failures: [] };
    const analysis = await callAgent({
      agentCmd: demo.agentCmd,
      repo: demo.repo,
      sessionDir,
      role: 'analyze',
      iteration: 1,
      results,
    });

    expect(analysis.exitCode).toBe(1);
    expect(analysis.stderr).toContain('demo agent: no failing tests in the test results: nothing to plan');
  });

  it('exits 1 and leaves the file alone when the code to fix is no longer there', async () => {
    const results = initial;
    const plan = readPlan(
      (
        await callAgent({
          agentCmd: demo.agentCmd,
          repo: demo.repo,
          sessionDir,
          role: 'analyze',
          iteration: 1,
          results,
        })
      ).stdout,
    );
    const query = join(demo.repo, 'src', 'query.js');
    const edited = (await readFile(query, 'utf8')).replace(
      'export function parseQuery(search) {',
      'export function parseQuery(search = "") {',
    );
    await writeFile(query, edited);

    const fix = await callAgent({
      agentCmd: demo.agentCmd,
      repo: demo.repo,
      sessionDir,
      role: 'fix',
      iteration: 1,
      results,
      plan,
    });

    expect(fix.exitCode).toBe(1);
    expect(fix.stderr).toContain(
      'demo agent: cannot apply the fix: src/query.js does not contain the expected code exactly once',
    );
    expect(await readFile(query, 'utf8')).toBe(edited);
  });

  it('exits 1 on a plan whose modification points it does not know', async () => {
    const results = initial;
    const plan = {
      root_causes: ['x'],
      modification_points: ['src/slug.js:slugify:5'],
      affected_tests: [],
      confidence_score: 0.9,
      approach: 'x',
    };

    const fix = await callAgent({
      agentCmd: demo.agentCmd,
      repo: demo.repo,
      sessionDir,
      role: 'fix',
      iteration: 1,
      results,
      plan,
    });

    expect(fix.exitCode).toBe(1);
    expect(fix.stderr).toContain(
      "demo agent: the plan's modification points (src/slug.js:slugify:5) are not a fix this scripted demo agent knows",
    );
    expect((await execa('git', ['status', '--porcelain'], { cwd: demo.repo })).stdout).toBe('');
  });

  it('exits 2 with a usage message when it is not run through the protocol', async () => {
    const [command, ...args] = demo.agentCmd;
    const run = await execa(command!, args, { cwd: demo.repo, reject: false, input: '' });

    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('demo agent: FIXCYCLE_ROLE must be "analyze" or "fix", got nothing');
  });
});
