import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseTests } from '../../src/engine/localize/cargo-coverage.js';
import { cargoArgs, listedTests, targetFlags, testBinaries } from '../../src/engine/localize/cargo-test-binaries.js';
import { findLlvmTools, rustcVersion } from '../../src/engine/localize/llvm-tools.js';

describe('cargo per-test spectra: what to build and run', () => {
  it("reads rustc's host and LLVM major from `rustc -vV`", () => {
    const text =
      'rustc 1.95.0 (59807616e 2026-04-14)\nbinary: rustc\nhost: x86_64-unknown-linux-gnu\nrelease: 1.95.0\nLLVM version: 22.1.2\n';
    expect(rustcVersion(text)).toEqual({ host: 'x86_64-unknown-linux-gnu', llvmMajor: 22 });
    expect(rustcVersion('rustc 1.0.0\n')).toBeNull();
  });

  it("finds the test binaries in cargo's JSON messages, each with the flag that builds it alone", () => {
    const line = (kind: string, name: string, test: boolean, executable: string | null): string =>
      JSON.stringify({
        reason: 'compiler-artifact',
        manifest_path: '/p/Cargo.toml',
        target: { kind: [kind], name },
        profile: { test },
        executable,
      });
    const out = [
      line('lib', 'semver', false, null),
      line('lib', 'semver', true, '/p/target/debug/deps/semver-1'),
      'Compiling semver v1.0.14',
      line('test', 'test_version_req', true, '/p/target/debug/deps/test_version_req-2'),
      JSON.stringify({ reason: 'build-finished', success: true }),
    ].join('\n');
    const binaries = testBinaries(out);
    expect(binaries.map((b) => [b.executable, b.cwd, targetFlags(b)])).toEqual([
      ['/p/target/debug/deps/semver-1', '/p', ['--lib']],
      ['/p/target/debug/deps/test_version_req-2', '/p', ['--test', 'test_version_req']],
    ]);
    expect(listedTests('tests::adds: test\nbench_x: benchmark\n\n2 tests, 1 benchmarks\n')).toEqual(['tests::adds']);
  });

  it("keeps the user's cargo arguments up to `--`, and only for cargo test", () => {
    const inv = (argv: string[]) => ({ argv, env: {}, setup: [], report: null });
    expect(cargoArgs(inv(['cargo', 'test', '--features', 'serde', '--', '--test-threads=1']))).toEqual([
      'cargo',
      'test',
      '--features',
      'serde',
    ]);
    expect(cargoArgs(inv(['npm', 'test']))).toBeNull();
  });

  it('measures each failing test and the nearest passing ones alone, the other passing tests as one unit', () => {
    const listed = [
      'a::one',
      'a::two',
      'b::x::one',
      'b::x::two',
      'b::x::three',
      'b::y::one',
      'c::one',
      'c::two',
      'c::three',
    ];
    const groups = chooseTests(listed, new Set(['b::x::two']), '--lib');
    expect(groups.map((g) => g.tests)).toEqual([
      ['b::x::two'],
      // the same module first, then the same parent module, then the binary's order
      ['b::x::one'],
      ['b::x::three'],
      ['b::y::one'],
      ['a::one'],
      ['a::two', 'c::one', 'c::two', 'c::three'],
    ]);
    expect(groups.at(-1)!.name).toBe('the other 4 passing test(s) of --lib');
    expect(chooseTests(['t1', 't2'], new Set(['t1']))).toEqual([
      { name: 't1', tests: ['t1'] },
      { name: 't2', tests: ['t2'] },
    ]);
  });

  it("says which LLVM tools are missing and how to get them when none is of rustc's LLVM", async () => {
    // A rustc built on an LLVM no tool here has: the lookup runs every candidate and finds none.
    const dir = mkdtempSync(join(tmpdir(), 'fixcycle-rustc-'));
    const rustc = join(dir, 'rustc');
    writeFileSync(
      rustc,
      `#!/bin/sh\nif [ "$1" = "-vV" ]; then printf 'rustc 9.0.0\\nhost: x86_64-unknown-linux-gnu\\nLLVM version: 99.1.0\\n'; else echo ${dir}; fi\n`,
    );
    chmodSync(rustc, 0o755);
    const before = process.env.RUSTC;
    process.env.RUSTC = rustc;
    try {
      expect(await findLlvmTools(dir)).toEqual({
        missing:
          'no llvm-profdata of LLVM 99 (the LLVM of rustc here) to read a -C instrument-coverage profile: ' +
          "`rustup component add llvm-tools`, or the distribution's llvm-99 package",
      });
    } finally {
      if (before === undefined) delete process.env.RUSTC;
      else process.env.RUSTC = before;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
