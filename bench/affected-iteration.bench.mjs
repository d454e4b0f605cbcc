// affected_iteration_ratio: the re-test of an iteration that touched one module (affected tests only) over a
// full-suite run, on a node:test project of 300 files (150 modules, 150 test files), alternated, medians.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveRunner } from '../dist/engine/runners/index.js';
import { generateModules } from '../test/fixtures/generate-modules.mjs';

const ROUNDS = 2; // the ratio is ~0.03 against any target: two rounds (the median is the slower) keep `npm run bench` under 5 min
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timed(fn) {
  const start = process.hrtime.bigint();
  const run = await fn();
  return { seconds: Number(process.hrtime.bigint() - start) / 1e9, run };
}

export default async function () {
  const dir = mkdtempSync(join(tmpdir(), 'fixcycle-bench-affected-'));
  try {
    generateModules(dir, 150);
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dir });
    const runner = await resolveRunner(dir, {});
    const full = [];
    const affected = [];
    let ran = 0;
    for (let round = 0; round < ROUNDS; round++) {
      full.push((await timed(() => runner.run({ cwd: dir, scope: 'full', timeoutMs: 300_000 }))).seconds);
      const one = await timed(() =>
        runner.run({ cwd: dir, scope: 'affected', changedFiles: ['src/m39.js'], lastFailures: [], timeoutMs: 300_000 }),
      );
      affected.push(one.seconds);
      ran = one.run.result.tests.length;
    }
    return {
      affected_iteration_ratio: median(affected) / median(full),
      affected_iteration_full_s: median(full),
      affected_iteration_selected_s: median(affected),
      affected_iteration_tests_run: ran,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
