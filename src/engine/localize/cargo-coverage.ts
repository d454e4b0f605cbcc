import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { coveredKeys } from '../gen/coverage/model.js';
import { readLcov } from '../gen/coverage/lcov.js';
import type { CommandTestRunner } from '../runners/test-runner.js';
import type { Failure } from '../types.js';
import { buildTestBinaries, cargoArgs, targetFlags, type TestBinary } from './cargo-test-binaries.js';
import { findLlvmTools, type LlvmTools } from './llvm-tools.js';
import { isSuspectSource } from './source-paths.js';
import type { SpectrumUnit } from './types.js';

/**
 * Failing tests measured one by one at most: past this many their spectrum says little more, and each costs
 * a run of the test binary and two LLVM tool runs.
 */
const MAX_FAILING = 4;
/** Passing tests of the failing tests' binaries measured alone, those of the failing tests' module first; the rest run as one unit. */
const MAX_PASSING = 4;
/** Tests measured at once: the machines fixcycle runs on are small and the build just took them. */
const SIDE_BY_SIDE = 2;
/** The instrumented build's own target folder, beside the user's builds in their target folder. */
const COVERAGE_TARGET = 'fixcycle-coverage';
/** The rustc wrapper cargo runs for the workspace's own crates only (`RUSTC_WORKSPACE_WRAPPER`), in that folder. */
const WRAPPER = 'fixcycle-instrument-rustc';
const WRAPPER_TEXT =
  '#!/bin/sh\n# fixcycle: the workspace\'s own crates built for coverage, their dependencies as the user builds them\nexec "$@" -C instrument-coverage\n';

/**
 * What makes the instrumented build instrument the workspace's own crates and nothing else: a
 * `RUSTC_WORKSPACE_WRAPPER` that adds `-C instrument-coverage` (cargo runs it for workspace members only, and its
 * path is part of their artifacts' hash), the user's RUSTFLAGS untouched, so the dependencies build as the
 * user builds them: once into the coverage target folder, never instrumented (their code is no suspect, and
 * instrumenting it costs build time, profile size and llvm-cov time). Where the user has a workspace wrapper of
 * their own (or on Windows, which runs no shell script) every crate gets `-C instrument-coverage` through RUSTFLAGS.
 */
export function instrumentEnv(env: Record<string, string>, target: string): Record<string, string> {
  if (env.RUSTC_WORKSPACE_WRAPPER || process.platform === 'win32')
    return { RUSTFLAGS: [env.RUSTFLAGS, '-C instrument-coverage'].filter(Boolean).join(' ') };
  const wrapper = join(target, WRAPPER);
  mkdirSync(target, { recursive: true });
  // Written only when it differs: cargo builds the members again when their wrapper changes.
  const current = (() => {
    try {
      return readFileSync(wrapper, 'utf8');
    } catch {
      return null;
    }
  })();
  if (current !== WRAPPER_TEXT) writeFileSync(wrapper, WRAPPER_TEXT, { mode: 0o755 });
  return { RUSTC_WORKSPACE_WRAPPER: wrapper };
}

export interface CargoSpectrumInput {
  root: string;
  runner: CommandTestRunner;
  failures: readonly Failure[];
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface CargoSpectrum {
  units: SpectrumUnit[];
  ran: string;
  missing?: string;
}

/** How many `::` segments two test paths share (`tests::a::x` and `tests::a::y`: 2). */
const sharedModules = (a: string, b: string): number => {
  const x = a.split('::').slice(0, -1);
  const y = b.split('::').slice(0, -1);
  let n = 0;
  while (n < x.length && x[n] === y[n]) n++;
  return n;
};

/** One unit of the spectrum: the tests one run of a binary runs, and its name in the evidence. */
export interface TestGroup {
  name: string;
  tests: string[];
}

/**
 * The units of one test binary: each failing test alone, the passing tests nearest them alone (the same module
 * first, then in the binary's own order), each up to its cap, and the binary's other passing tests together,
 * so that a function every passing test skips still stands apart from one some other test runs.
 */
export function chooseTests(
  listed: readonly string[],
  failing: ReadonlySet<string>,
  binary = 'the binary',
): TestGroup[] {
  const failed = listed.filter((t) => failing.has(t));
  const near = (t: string): number => Math.max(0, ...failed.map((f) => sharedModules(t, f)));
  const passing = listed
    .filter((t) => !failing.has(t))
    .map((t, k) => ({ t, k, near: near(t) }))
    .sort((a, b) => b.near - a.near || a.k - b.k)
    .map((p) => p.t);
  const alone = [...failed.slice(0, MAX_FAILING), ...passing.slice(0, MAX_PASSING)];
  const rest = passing.slice(MAX_PASSING);
  return [
    ...alone.map((t) => ({ name: t, tests: [t] })),
    ...(rest.length > 0 ? [{ name: `the other ${rest.length} passing test(s) of ${binary}`, tests: rest }] : []),
  ];
}

/** How cargo names a test target (`--lib`, `--test it`). */
const binaryName = (b: TestBinary): string => targetFlags(b).join(' ');

/** Runs `work` over `items`, `limit` at a time, results in the items' order. */
async function inTurn<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, k: number) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const k = next++;
      out[k] = await work(items[k]!, k);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return out;
}

/**
 * One unit's tests run (`--exact`) with their own profile, merged by llvm-profdata and read by llvm-cov as lcov:
 * the lines of the project's own non-test source they ran. A unit failed when its run did.
 */
/** What every unit's run shares. */
interface UnitContext {
  /** Where the profiles go (a temporary folder). */
  dir: string;
  tools: LlvmTools;
  env: Record<string, string>;
  timeoutMs: number;
  root: string;
  signal?: AbortSignal;
}

async function measureGroup(
  binary: TestBinary,
  group: TestGroup,
  k: number,
  { dir, tools, env, timeoutMs, root, signal }: UnitContext,
): Promise<SpectrumUnit & { ok: boolean }> {
  const test = group.name;
  const prefix = `unit-${k}-`;
  const run = await execa(binary.executable, ['--exact', ...group.tests, '--test-threads=1'], {
    cwd: binary.cwd,
    env: { ...env, LLVM_PROFILE_FILE: join(dir, `${prefix}%p.profraw`), CARGO_MANIFEST_DIR: binary.cwd },
    reject: false,
    timeout: timeoutMs,
    cancelSignal: signal,
  });
  const raws = readdirSync(dir)
    .filter((n) => n.startsWith(prefix) && n.endsWith('.profraw'))
    .map((n) => join(dir, n));
  const failed = run.exitCode !== 0;
  if (raws.length === 0) return { name: test, failed, lines: [], ok: false };
  const data = join(dir, `${prefix}merged.profdata`);
  const merged = await execa(tools.profdata, ['merge', '-sparse', ...raws, '-o', data], { reject: false });
  if (merged.exitCode !== 0) return { name: test, failed, lines: [], ok: false };
  const lcov = join(dir, `${prefix}lcov.info`);
  const exported = await execa(
    tools.cov,
    ['export', '-format=lcov', '-skip-functions', `-instr-profile=${data}`, binary.executable],
    { reject: false, stdout: { file: lcov } },
  );
  if (exported.exitCode !== 0) return { name: test, failed, lines: [], ok: false };
  const coverage = await readLcov(lcov, root, isSuspectSource);
  return { name: test, failed, lines: [...coveredKeys(coverage)].filter((key) => !key.endsWith(':branch')), ok: true };
}

/**
 * Per-test spectra for cargo: the failing tests' binaries built with `-C instrument-coverage` (the user's
 * RUSTFLAGS kept) into their own target folder, kept between runs so that after a fix only the crate is built
 * again, then each failing test and the passing tests nearest it run alone, each with its own profile. Needs
 * the llvm-profdata and llvm-cov of rustc's LLVM; a failing doc test cannot be measured (rustdoc keeps its
 * instrumented doc tests only on nightly).
 */
export async function cargoSpectrum(input: CargoSpectrumInput): Promise<CargoSpectrum | { skipped: string }> {
  const { root, runner } = input;
  const inv = runner.commands.full(tmpdir());
  const args = cargoArgs(inv);
  if (!args) return { skipped: `the test command is not \`cargo test\` (${inv.argv.join(' ')})` };
  // "not run" failures are the targets after the failing one: nothing ran them.
  const ran = input.failures.filter((f) => !f.message.startsWith('not run:'));
  const failing = new Set(ran.map((f) => f.name || f.id));
  if (failing.size === 0) return { skipped: 'no failing test ran' };
  const env: Record<string, string> = { ...(process.env as Record<string, string>), ...inv.env };
  const cwd = inv.cwd ?? root;
  const options = { cwd, env, timeoutMs: input.timeoutMs, signal: input.signal };
  // The user's build, fresh after the run that failed: which binaries hold the failing tests.
  const [tools, plain] = await Promise.all([findLlvmTools(root), buildTestBinaries(args, [], options)]);
  if ('missing' in tools) return { skipped: tools.missing };
  if ('error' in plain) return { skipped: `cargo test --no-run failed: ${plain.error}` };
  const holding = plain.binaries.filter((b) => b.tests.some((t) => failing.has(t)));
  const unlisted = [...failing].filter((t) => !plain.binaries.some((b) => b.tests.includes(t)));
  const docNote =
    unlisted.length > 0
      ? `${unlisted.length} failing test(s) in no test binary, doc tests (${unlisted[0]}): rustdoc keeps no instrumented doc test on stable Rust`
      : undefined;
  if (holding.length === 0) return { skipped: docNote ?? 'no test binary lists the failing tests' };

  const target = join(dirname(dirname(dirname(holding[0]!.executable))), COVERAGE_TARGET);
  const dir = mkdtempSync(join(tmpdir(), 'fixcycle-cargo-cov-'));
  try {
    // The members' build scripts and proc macros are instrumented too, and so is `--list`: every process the build or the
    // listing starts writes its profile here, never a `default_*.profraw` in the user's tree (which would also
    // make cargo see the package changed and build it again).
    const instrumented = await buildTestBinaries(args, ['--target-dir', target, ...holding.flatMap(targetFlags)], {
      ...options,
      env: { ...env, ...instrumentEnv(env, target), LLVM_PROFILE_FILE: join(dir, 'build-%p-%m.profraw') },
    });
    if ('error' in instrumented)
      return { skipped: `the build with -C instrument-coverage failed: ${instrumented.error}` };
    const runs = instrumented.binaries
      .filter((b) => holding.some((h) => h.kind === b.kind && h.target === b.target && h.cwd === b.cwd))
      .flatMap((b) => chooseTests(b.tests, failing, binaryName(b)).map((group) => ({ binary: b, group })));
    const context = { dir, tools, env, timeoutMs: Math.min(input.timeoutMs, 120_000), root, signal: input.signal };
    const units = await inTurn(runs, SIDE_BY_SIDE, (r, k) => measureGroup(r.binary, r.group, k, context));
    const measured = units.filter((u) => u.ok).map(({ ok: _, ...u }) => u);
    const failed = measured.filter((u) => u.failed).length;
    return {
      units: measured,
      ran: `${measured.length} unit(s) of tests (${failed} failing), built with -C instrument-coverage, read by ${tools.from}`,
      ...(docNote || measured.length < units.length
        ? {
            missing: [
              docNote,
              measured.length < units.length ? `${units.length - measured.length} test run(s) left no profile` : '',
            ]
              .filter(Boolean)
              .join('; '),
          }
        : {}),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
