import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agentCmd, makeRepo, readJson, removeRepos, runCli, scenario, sessionDir, state } from '../helpers/repo.js';

afterAll(removeRepos);

const FIXED_CALC =
  "export function add(a, b) {\n  return a + b;\n}\n\nexport function multiply(a, b) {\n  return a * b;\n}\n\nexport function divide(a, b) {\n  if (b === 0) throw new Error('division by zero');\n  return a / b;\n}\n";

describe('flaky tests', () => {
  it('re-runs a failing test before asking an agent; one that passes on re-run is flaky and low criticality', async () => {
    // Fails on its first run only: the marker file lives in the repository, ignored by git.
    const flakyTest = [
      "import { it } from 'node:test';",
      "import assert from 'node:assert/strict';",
      "import { existsSync, writeFileSync } from 'node:fs';",
      "it('talks to a slow service', () => {",
      "  const first = !existsSync('.ran-once');",
      "  writeFileSync('.ran-once', '');",
      "  assert.ok(!first, 'service did not answer in time');",
      '});',
    ].join('\n');
    const repo = makeRepo('projects-loop/calc', {
      'src/calc.js': FIXED_CALC,
      'test/service.test.js': flakyTest,
      '.gitignore': '.ran-once\n',
    });
    const agent = scenario({ analyze: [] });
    const run = await runCli(repo, [
      'run',
      '--headless',
      '--test-cmd',
      'node --test',
      '--agent-cmd',
      agentCmd(agent.path),
      '--yes',
    ]);
    expect(run.exitCode, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/1 flaky test\(s\) passed on re-run/);
    expect(agent.calls()).toEqual([]);
    expect(state(repo)).toMatchObject({
      status: 'partial_success',
      flaky_tests: [expect.stringMatching(/talks to a slow service/)],
    });
    const results = readJson(join(sessionDir(repo), '.process/test-results.json'));
    expect(results.failures).toEqual([expect.objectContaining({ criticality: 'low', criticality_source: 'flaky' })]);
  });
});
