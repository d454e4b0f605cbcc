import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { dropTests } from '../gen/drop-tests.js';
import type { Finding } from '../gen/l0/finding.js';
import { projectChecks } from '../gen/l0/project-checks.js';
import { pythonOf } from '../gen/coverage/python.js';
import { staticChecks } from '../gen/l0/static-checks.js';
import type { TeamContext } from './team-context.js';
import { discardFiles } from './worktrees.js';

/** Takes out of `written` the files no longer there, and puts back a tracked file the generator deleted. */
export async function settleDeleted(cwd: string, written: Set<string>): Promise<void> {
  for (const f of [...written]) {
    if (existsSync(join(cwd, f))) continue;
    written.delete(f);
    await discardFiles(cwd, [f]);
  }
}

/**
 * Drops what still fails L0 after the last round: the failing test cases alone where a finding names one, whole
 * files where it is the file's (imports, syntax). Returns what went, as `<file>: "<test>"` or `<file>`.
 */
export async function dropCritical(cwd: string, critical: readonly Finding[], written: Set<string>): Promise<string[]> {
  const dropped: string[] = [];
  const byFile = new Map<string, Finding[]>();
  for (const f of critical.filter((c) => written.has(c.file))) byFile.set(f.file, [...(byFile.get(f.file) ?? []), f]);
  const repo = { root: cwd, restoreFiles: (files: readonly string[]) => discardFiles(cwd, files) };
  for (const [file, found] of byFile) {
    const whole = found.some((f) => !f.test);
    const paths = [...new Set(found.flatMap((f) => (f.test ? [f.test] : [])))].map((t) => t.split(' > '));
    const out = await dropTests(repo, file, whole ? [] : paths, !whole);
    // Each drop with the finding that made it, in the checker's words (go vet's `undefined: Newf` at its line).
    const why = (test?: string): string => {
      const f = found.find((x) => x.test === test) ?? found.find((x) => !x.test) ?? found[0]!;
      return `${f.check}: ${f.message} (line ${f.line})`;
    };
    dropped.push(
      ...out.removed.map((n) => `${file}: "${n}" (${why(found.find((f) => f.test?.endsWith(n))?.test)})`),
      ...(out.fileGone ? [`${file} (${whole ? why() : (out.why ?? 'removed')})`] : []),
    );
  }
  return dropped;
}

/**
 * A generator's last L0 round: what still fails goes, then what is left is checked again until clean. A finding can
 * hide another (go builds a package's test files as one: a missing import in one file stops it before the undeclared
 * names of another; tsc stops at a syntax error), so each file goes for the error the checker names in it, never for
 * a sibling's. The project's linter is reported, never a drop. Returns what went, each with the checker's words.
 */
export async function dropUntilClean(
  ctx: Pick<TeamContext, 'options' | 'signal' | 'runner'>,
  cwd: string,
  critical: readonly Finding[],
  written: Set<string>,
  sources: readonly string[],
): Promise<string[]> {
  const dropped = await dropCritical(cwd, critical, written);
  await settleDeleted(cwd, written);
  for (let again = 0; again < 3 && written.size > 0; again++) {
    const left = [...written];
    const recheck = await projectChecks(
      cwd,
      [...left, ...sources],
      ctx.options.testTimeoutMs,
      ctx.signal,
      pythonOf(ctx.runner.describe().full),
      ctx.runner.describe().env,
    );
    const more = [...recheck.findings, ...(await staticChecks(cwd, left, sources))].filter(
      (f) => f.severity === 'critical' && f.check !== 'lint' && written.has(f.file),
    );
    if (more.length === 0) break;
    dropped.push(...(await dropCritical(cwd, more, written)));
    await settleDeleted(cwd, written);
  }
  return dropped;
}
