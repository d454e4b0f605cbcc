import { basename, dirname } from 'node:path';
import { execa } from 'execa';
import type { Invocation } from '../runners/invocation.js';

/** A test binary cargo built: what it is (`lib`, `test` + name), where it runs, and the tests it holds. */
export interface TestBinary {
  executable: string;
  kind: string;
  target: string;
  /** The package's folder: cargo runs a test binary there. */
  cwd: string;
  /** The tests it lists (`tests::adds`), filled by `listTests`. */
  tests: string[];
}

interface Artifact {
  reason?: string;
  executable?: string | null;
  manifest_path?: string;
  profile?: { test?: boolean };
  target?: { kind?: string[]; name?: string };
}

/** The test binaries in cargo's `--message-format=json` output, in the order it built them. */
export function testBinaries(stdout: string): TestBinary[] {
  const out: TestBinary[] = [];
  for (const line of stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    let a: Artifact;
    try {
      a = JSON.parse(line) as Artifact;
    } catch {
      continue;
    }
    if (a.reason !== 'compiler-artifact' || !a.executable || !a.profile?.test || !a.manifest_path) continue;
    out.push({
      executable: a.executable,
      kind: a.target?.kind?.[0] ?? 'lib',
      target: a.target?.name ?? '',
      cwd: dirname(a.manifest_path),
      tests: [],
    });
  }
  return out;
}

/** cargo's flags that build this one test target (`--lib`, `--test it`). */
export function targetFlags(binary: Pick<TestBinary, 'kind' | 'target'>): string[] {
  if (['bin', 'test', 'bench', 'example'].includes(binary.kind)) return [`--${binary.kind}`, binary.target];
  return ['--lib'];
}

/** The names of `<binary> --list` (`tests::adds: test`), benchmarks left out. */
export const listedTests = (stdout: string): string[] =>
  stdout.split('\n').flatMap((line) => /^(.+): test$/.exec(line)?.[1] ?? []);

/** The user's `cargo test ...` up to its `--` (the cargo side), or null when the command is not cargo test. */
export function cargoArgs(inv: Invocation): string[] | null {
  const bin = inv.argv[0];
  if (!bin || basename(bin) !== 'cargo' || !inv.argv.includes('test')) return null;
  const dash = inv.argv.indexOf('--');
  return dash === -1 ? inv.argv : inv.argv.slice(0, dash);
}

export interface BuildOptions {
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * Builds the test targets of `cargo test <args> <extra>` without running them, and lists each binary's tests.
 * Where the tree was just built by the same command, cargo only checks it is fresh. The last error line when
 * cargo fails.
 */
export async function buildTestBinaries(
  args: string[],
  extra: string[],
  options: BuildOptions,
): Promise<{ binaries: TestBinary[] } | { error: string }> {
  const built = await execa(args[0]!, [...args.slice(1), '--no-run', '--message-format=json', ...extra], {
    cwd: options.cwd,
    env: options.env,
    reject: false,
    timeout: options.timeoutMs,
    cancelSignal: options.signal,
  });
  if (built.exitCode !== 0) {
    const said = `${built.stderr}`
      .trim()
      .split('\n')
      .filter((l) => /error/.test(l));
    return { error: said.at(-1) ?? `cargo exited with ${built.exitCode ?? built.signal}` };
  }
  const binaries = testBinaries(`${built.stdout}`);
  await Promise.all(
    binaries.map(async (b) => {
      const listed = await execa(b.executable, ['--list'], {
        cwd: b.cwd,
        env: options.env,
        reject: false,
        timeout: 30_000,
      });
      b.tests = listedTests(`${listed.stdout}`);
    }),
  );
  return { binaries };
}
