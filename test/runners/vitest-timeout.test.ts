import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveRunner } from '../../src/engine/runners/index.js';
import { copyFixture, removeFixtures } from './helpers/fixtures.js';

afterAll(removeFixtures);

// Found on zod's published tests in the corpus: under load its `redos checker` test timed out, and fixcycle
// showed the agent only `Error: STACK_TRACE_ERROR`, which is all vitest's JSON report keeps of a timeout.
describe("vitest's timeout, as its JSON report has it", () => {
  it('is a test that timed out, with how long it ran, not STACK_TRACE_ERROR', async () => {
    const dir = copyFixture('vitest-passing');
    writeFileSync(
      join(dir, 'slow.test.js'),
      "import { it } from 'vitest';\nit('waits too long', async () => { await new Promise((done) => setTimeout(done, 3000)); }, 300);\n",
    );
    const run = await (await resolveRunner(dir, {})).run({ cwd: dir, scope: 'full', timeoutMs: 120_000 });
    const slow = run.result.tests.find((t) => t.name === 'waits too long');
    expect(slow?.status).toBe('failed');
    expect(slow?.message).toMatch(/^Error: Test timed out after \d+ms \(vitest's testTimeout or hookTimeout/);
    expect(slow?.message).not.toContain('STACK_TRACE_ERROR\n');
    expect(slow?.message).toMatch(/slow\.test\.js:2/);
  });
});
