import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agentCmd, execa, makeRepo, removeRepos, runCli, scenario, state } from '../helpers/repo.js';
import { editAdd, editMultiply, planAdd, planMultiply } from './plans.js';

afterAll(removeRepos);

// A suite that leaves a file behind on every run, in a folder the project does not ignore (node-tap 18's .tap/,
// a coverage or report folder missing from .gitignore).
const WRITES_ARTIFACT = `import { test } from 'node:test';
import { mkdirSync, writeFileSync } from 'node:fs';
test('records the run', () => {
  mkdirSync('reports', { recursive: true });
  writeFileSync('reports/last-run.txt', String(Date.now()) + '\\n');
});
`;

describe('files the test command writes', () => {
  it('are never taken for part of a fix: the fix is checked and committed with the files the agent changed', async () => {
    const repo = makeRepo('projects-loop/calc', { 'test/artifact.test.js': WRITES_ARTIFACT });
    const agent = scenario({
      analyze: [planAdd, planMultiply],
      fix: [{ edits: [editAdd] }, { edits: [editMultiply] }],
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
    expect(state(repo).iterations.map((i: any) => i.files_changed)).toEqual([['src/calc.js'], ['src/calc.js']]);
    const committed = await execa('git', ['log', '--name-only', '--format=%s', '-2'], { cwd: repo });
    expect(committed.stdout).not.toContain('reports/last-run.txt');
    expect(run.stdout).not.toMatch(/edits test files/);
  });
});

// The failing tests' file leaves a file behind only in localization's coverage run (V8 coverage on), as node-tap
// 18 leaves its .tap/ files: the coverage run runs the failing files only.
const CALC_TESTS = readFileSync(new URL('../fixtures/projects-loop/calc/test/calc.test.js', import.meta.url), 'utf8');
const MARK_COVERAGE_RUN = `import { mkdirSync, writeFileSync } from 'node:fs';
if (process.env.NODE_V8_COVERAGE) {
  mkdirSync('reports', { recursive: true });
  writeFileSync('reports/coverage-run.txt', String(Date.now()) + '\\n');
}
`;

describe("files localization's coverage run writes", () => {
  it('are test artifacts too: never taken for part of the fix', async () => {
    const repo = makeRepo('projects-loop/calc', {
      'mark-run.js': MARK_COVERAGE_RUN,
      'test/calc.test.js': `import '../mark-run.js';\n${CALC_TESTS}`,
    });
    const agent = scenario({
      analyze: [planAdd, planMultiply],
      fix: [{ edits: [editAdd] }, { edits: [editMultiply] }],
    });
    const run = await runCli(repo, [
      'run',
      '--headless',
      // In place: the artifacts are looked for in the user's tree, where the test command ran.
      '--in-place',
      '--test-cmd',
      'node --test',
      '--agent-cmd',
      agentCmd(agent.path),
    ]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/\[suspects\]/);
    expect(existsSync(join(repo, 'reports/coverage-run.txt'))).toBe(true);
    expect(state(repo).iterations.map((i: any) => i.files_changed)).toEqual([['src/calc.js'], ['src/calc.js']]);
  });
});
