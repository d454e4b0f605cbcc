import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';

/** The LLVM tools that read a `-C instrument-coverage` profile: they must be the LLVM rustc is built on. */
export interface LlvmTools {
  profdata: string;
  cov: string;
  /** Where they were found, for the evidence (`rustup's llvm-tools`, `/usr/lib/llvm-22/bin`). */
  from: string;
}

/** What `rustc -vV` says about itself: the host triple and the major version of its LLVM. */
export function rustcVersion(text: string): { host: string; llvmMajor: number } | null {
  const host = /^host: (\S+)$/m.exec(text)?.[1];
  const llvm = /^LLVM version: (\d+)/m.exec(text)?.[1];
  return host && llvm ? { host, llvmMajor: Number(llvm) } : null;
}

const runs = async (argv: string[], cwd: string): Promise<string | null> => {
  const r = await execa(argv[0]!, argv.slice(1), { cwd, reject: false, timeout: 20_000 });
  return r.exitCode === 0 ? r.stdout : null;
};

/** The first of these pairs whose profdata runs and says it is this LLVM major (a bare name is looked up on PATH). */
async function firstMatching(pairs: [string, string, string][], major: number, cwd: string): Promise<LlvmTools | null> {
  for (const [profdata, cov, from] of pairs) {
    if (profdata.includes('/') && !existsSync(profdata)) continue;
    const version = await runs([profdata, '--version'], cwd).catch(() => null);
    if (version && new RegExp(`LLVM version ${major}\\.`).test(version)) return { profdata, cov, from };
  }
  return null;
}

/**
 * The llvm-profdata and llvm-cov that read the profiles of the rustc that builds the project (run in `root`,
 * so a rust-toolchain file there picks it): rustup's `llvm-tools` component in its sysroot first, then the
 * distribution's `llvm-profdata-<major>` or `/usr/lib/llvm-<major>/bin/`, then a bare `llvm-profdata` of the same
 * major. Tools of another LLVM cannot read the profile (its format changes between majors). Otherwise the
 * reason, naming what to install.
 */
export function findLlvmTools(root: string): Promise<LlvmTools | { missing: string }> {
  // Asked once per project and process: every localization of a session needs the same answer.
  let found = asked.get(root);
  if (!found) asked.set(root, (found = lookUp(root)));
  return found;
}

const asked = new Map<string, Promise<LlvmTools | { missing: string }>>();

async function lookUp(root: string): Promise<LlvmTools | { missing: string }> {
  const rustc = process.env.RUSTC || 'rustc';
  const [verbose, sysroot] = await Promise.all([
    runs([rustc, '-vV'], root).catch(() => null),
    runs([rustc, '--print', 'sysroot'], root).catch(() => null),
  ]);
  const version = verbose ? rustcVersion(verbose) : null;
  if (!version) return { missing: `\`${rustc} -vV\` did not say which LLVM it is built on` };
  const { host, llvmMajor: major } = version;
  const own = sysroot ? join(sysroot.trim(), 'lib', 'rustlib', host, 'bin') : null;
  const pairs: [string, string, string][] = [
    ...(own
      ? [[join(own, 'llvm-profdata'), join(own, 'llvm-cov'), "rustup's llvm-tools"] as [string, string, string]]
      : []),
    [`llvm-profdata-${major}`, `llvm-cov-${major}`, `llvm-profdata-${major} on PATH`],
    [`/usr/lib/llvm-${major}/bin/llvm-profdata`, `/usr/lib/llvm-${major}/bin/llvm-cov`, `/usr/lib/llvm-${major}/bin`],
    ['llvm-profdata', 'llvm-cov', 'llvm-profdata on PATH'],
  ];
  const found = await firstMatching(pairs, major, root);
  if (found) return found;
  return {
    missing:
      `no llvm-profdata of LLVM ${major} (the LLVM of rustc here) to read a -C instrument-coverage profile: ` +
      `\`rustup component add llvm-tools\`, or the distribution's llvm-${major} package`,
  };
}
