import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseSummaryLine } from '../../src/engine/report/index.js';
import { resolveRunner } from '../../src/engine/runners/index.js';
import { copyFixture, missingTool, removeFixtures } from './helpers/fixtures.js';

afterAll(removeFixtures);

const missing = missingTool(['cargo', ['--version']]);

// cargo-stopped: two unit tests (one fails), an integration test and two doc tests. cargo test stops at the failing
// library target: the integration and doc tests never run, and cargo's own summary counts only the library's.
describe.skipIf(missing !== null)(missing ? `cargo (skipped: ${missing})` : 'cargo at its first failing target', () => {
  it('reports the targets after the failing one as not run, listed by cargo itself, never missing', async () => {
    const dir = copyFixture('cargo-stopped');
    const logFile = join(dir, 'test-output.log');
    writeFileSync(logFile, '');
    const runner = await resolveRunner(dir, {});
    const run = await runner.run({ cwd: dir, scope: 'full', timeoutMs: 240_000, logFile });

    expect(parseSummaryLine(readFileSync(logFile, 'utf8'))).toMatchObject({ passed: 1, failed: 1 });
    const stopped = 'cargo test stopped at the first failing target (--lib), so the targets after it did not run';
    expect(run.result.stopped).toBe(stopped);
    const byId = Object.fromEntries(run.result.tests.map((test) => [test.id, test]));
    expect(byId['tests::doubles']?.status).toBe('passed');
    expect(byId['tests::adds']?.status).toBe('failed');
    const notRun = run.result.tests.filter((test) => test.message === `not run: ${stopped}`).map((test) => test.id);
    // The doc tests carry the ids a full run gives them (their line numbers left out, see stableDoctestIds).
    expect(notRun.sort()).toEqual(['integrates', 'src/lib.rs - add', 'src/lib.rs - double']);
  }, 300_000);
});
