import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveRunner } from '../../src/engine/runners/index.js';
import { localize } from '../../src/engine/localize/index.js';
import { findLlvmTools } from '../../src/engine/localize/llvm-tools.js';
import { copyFixture, missingTool, removeFixtures } from '../runners/helpers/fixtures.js';
import { failuresOf } from './failures-of.js';

afterAll(removeFixtures);

// cargo, and the llvm-profdata/llvm-cov of rustc's own LLVM (rustup's llvm-tools, or the distribution's llvm-<major>).
const cargo = missingTool(['cargo', ['--version']]);
const tools = cargo ? null : await findLlvmTools(process.cwd());
const missing = cargo ?? (tools && 'missing' in tools ? tools.missing : null);

// cargo-suspects: `describe` calls `mean` and, for two values or more, `spread`, whose `+ 1.0` is the bug. The
// failing test `two_values` calls `describe`; the passing `one_value` calls it too (a single value: no `spread`)
// and `averages` calls `mean`. Names and calls point at `describe`: a spectrum per test puts `spread` first.
describe.skipIf(missing !== null)(missing ? `cargo coverage (skipped: ${missing})` : 'cargo coverage', () => {
  it('ranks the function only the failing test runs first, from a -C instrument-coverage build of its own', async () => {
    const dir = copyFixture('cargo-suspects');
    const runner = await resolveRunner(dir, {});
    const run = await runner.run({ cwd: dir, scope: 'full', timeoutMs: 300_000 });
    const failures = failuresOf(run.result.tests);
    expect(failures.map((f) => f.name)).toEqual(['tests::two_values']);

    const found = await localize({ root: dir, runner, failures, timeoutMs: 300_000, changeBase: null });
    expect(found.used).toContain('coverage');
    expect(found.granularity).toBe('test');
    expect(found.suspects[0]).toMatchObject({ file: 'src/lib.rs', function: 'spread', startLine: 7, endLine: 11 });
    expect(found.suspects[0]!.evidence[0]).toMatch(
      /Ochiai 1 at line \d+ \(run by 1 of 1 failing and 0 of 2 passing tests\)/,
    );
    expect(found.suspects.slice(1, 3).map((s) => [s.function, s.scores.coverage])).toEqual([
      ['describe', 0.707],
      ['mean', 0.577],
    ]);
    // Test code is never a suspect, and the instrumented build has its own target folder.
    expect(found.suspects.some((s) => s.function.startsWith('tests') || s.function === 'two_values')).toBe(false);
    expect(existsSync(join(dir, 'target', 'fixcycle-coverage'))).toBe(true);
    // No profile is left in the user's tree (an instrumented process writes `default_*.profraw` where it runs).
    expect(readdirSync(dir).filter((name) => name.endsWith('.profraw'))).toEqual([]);
  }, 600_000);
});

// cargo-dep-suspects: `app` depends on `units`, a crate outside its workspace (`../units`). `spelled` adds 1 to
// the centimetres: the failing `spells` runs it, the passing `rounds` runs `rounded` and `units::centimetres`.
describe.skipIf(missing !== null)(
  missing ? `cargo coverage of the workspace only (skipped: ${missing})` : 'cargo coverage of the workspace only',
  () => {
    it('instruments the workspace’s own crates and builds their dependencies as the user does', async () => {
      const dir = join(copyFixture('cargo-dep-suspects'), 'app');
      const runner = await resolveRunner(dir, {});
      const run = await runner.run({ cwd: dir, scope: 'full', timeoutMs: 300_000 });
      const failures = failuresOf(run.result.tests);
      expect(failures.map((f) => f.name)).toEqual(['tests::spells']);

      const found = await localize({ root: dir, runner, failures, timeoutMs: 300_000, changeBase: null });
      expect(found.granularity).toBe('test');
      expect(found.suspects[0]).toMatchObject({ file: 'src/lib.rs', function: 'spelled' });
      // LLVM's coverage sections (`__llvm_covfun`) are in the crate's test binary, not in its dependency.
      const deps = join(dir, 'target', 'fixcycle-coverage', 'debug', 'deps');
      const built = (prefix: string, suffix: string): Buffer => {
        const name = readdirSync(deps).find((n) => n.startsWith(prefix) && n.endsWith(suffix));
        expect(name, `${prefix}*${suffix} in ${deps}`).toBeDefined();
        return readFileSync(join(deps, name!));
      };
      expect(built('app-', '').includes('__llvm_covfun')).toBe(true);
      expect(built('libunits-', '.rlib').includes('__llvm_covfun')).toBe(false);
    }, 600_000);
  },
);
