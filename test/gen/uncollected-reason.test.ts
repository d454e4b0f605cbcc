import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { judgeRuns } from '../../src/engine/gen/judge-runs.js';
import { collectionError } from '../../src/engine/gen/quality-observe.js';
import { verdicts } from '../../src/engine/gen/quality-verdicts.js';
import { newGenState } from '../../src/engine/gen/state.js';
import { staticHints } from '../../src/engine/gen/static-hints.js';
import type { TestRun } from '../../src/engine/runners/runner.js';
import { genProject, runGen } from '../helpers/gen-run.js';
import { makeRepo, removeRepos, ROOT } from '../helpers/repo.js';

afterAll(removeRepos);

// ts-jest's words when the project's tsconfig (noUnusedLocals) refuses a test file, as jest printed them, colours
// and all (css-select's placeholder generation: its body uses none of the file's imports).
const TS_JEST_REFUSAL = [
  'FAIL test/attributes-errors.ts',
  '  ● Test suite failed to run',
  '',
  "    \u001b[96mtest/attributes-errors.ts\u001b[0m:\u001b[93m1\u001b[0m:\u001b[93m1\u001b[0m - \u001b[91merror\u001b[0m\u001b[90m TS6133: \u001b[0m'CSSselect' is declared but its value is never read.",
  '',
  '    \u001b[7m1\u001b[0m import * as CSSselect from "../src";',
  '',
  'Test Suites: 1 failed, 1 total',
  'Tests:       0 total',
  'Time:        11.807 s',
  'Ran all test suites within paths "test/attributes-errors.ts".',
  'Test results written to: ../../../fixcycle-run-Qkwe3G/jest.json',
].join('\n');

const refused = (outputTail: string): TestRun => ({
  result: { format: 'jest-json', tests: [], errors: [], truncated: false },
  source: 'report',
  exitCode: 1,
  timedOut: false,
  durationMs: 11_807,
  command: ['jest', 'test/attributes-errors.ts'],
  selection: null,
  outputTail,
});

describe('a file the runner cannot load is rejected with the runner words, and what L0 saw in it', () => {
  it("the reason quotes the compiler's error, not the end of jest's output", () => {
    const words = collectionError(refused(TS_JEST_REFUSAL));
    expect(words).toMatch(/error TS6133: 'CSSselect' is declared but its value is never read/);
    expect(words).not.toMatch(/Test results written to/);
    expect(words).not.toContain('\u001b');
  });

  it("a placeholder file that does not collect names the runner's refusal and L0's placeholder finding", async () => {
    const file = 'test/attributes-errors.ts';
    const repo = makeRepo(null, {
      [file]:
        'import * as CSSselect from "../src";\n\ndescribe("attribute selectors", () => {\n  it("rejects invalid input", () => {\n    // TODO: cover the error cases\n    throw new Error("not implemented");\n  });\n});\n',
    });
    const state = newGenState('WFS-test-x', false, '');
    const v = verdicts(state, 5, await staticHints(repo, [file]));
    await judgeRuns(repo, new Map(), [{ file, error: collectionError(refused(TS_JEST_REFUSAL)) }], v);
    expect(state.rejected).toHaveLength(1);
    expect(state.rejected[0]!.reason).toMatch(
      /^does not collect: .*error TS6133: 'CSSselect'.*; L0 on the file: .*not implemented/,
    );
  });

  it("gen: a placeholder file that throws when it loads is rejected with node's error and L0's placeholder finding, read before the file left the tree", async () => {
    const repo = genProject(
      {
        'package.json': JSON.stringify({ name: 'p', private: true, scripts: { test: 'node --test' } }),
        'test/old.test.js':
          "const { test } = require('node:test');\nconst assert = require('node:assert');\ntest('old', () => assert.ok(true));\n",
      },
      { 'src/double.js': 'exports.double = (n) => 2 * n;\n' },
    );
    const agent = mkdtempSync(join(tmpdir(), 'fixcycle-files-agent-'));
    const plan = {
      target: 'src/double.js:double',
      rounds: [
        {
          'test/double.test.js':
            "const { test } = require('node:test');\nconst assert = require('node:assert');\nconst { double } = require('../src/double');\n\ntest('doubles', () => assert.equal(double(2), 4));\n",
          'test/double-errors.test.js':
            "const { test } = require('node:test');\nconst cases = JSON.parse(require('node:fs').readFileSync(__dirname + '/fixtures/cases.json', 'utf8'));\n\ntest('rejects invalid input', () => {\n  // TODO: cover the error cases\n  throw new Error('not implemented');\n});\n",
        },
      ],
    };
    writeFileSync(join(agent, 'plan.json'), JSON.stringify(plan));
    const { out, state } = await runGen(
      repo,
      `${process.execPath} ${join(ROOT, 'test/fixtures/agents/files-agent.mjs')} ${agent} ${join(agent, 'plan.json')}`,
    );
    const rejected = state.rejected.find((r: any) => r.file === 'test/double-errors.test.js');
    expect(rejected?.reason, out).toMatch(/^does not collect: .*cases\.json.*; L0 on the file: .*not implemented/);
  }, 240_000);
});
