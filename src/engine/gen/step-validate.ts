import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { writeJsonAtomic } from '../session/atomic.js';
import { node, type GenContext } from './gen-context.js';
import { findingLine, type Finding } from './l0/finding.js';
import { projectChecks } from './l0/project-checks.js';
import { staticChecks } from './l0/static-checks.js';
import { l0Verdict, reportedFindings } from './l0/verdict.js';
import { pythonOf } from './coverage/python.js';
import { dropTests } from './drop-tests.js';
import { genPaths } from './paths.js';
import { readContextPackage } from './phase-analysis.js';
import { updateTask } from './phase-tasks.js';

/**
 * Removes what still fails L0 after the last round: the failing test cases alone (a describe's case, a class's
 * method, a go subtest), or whole files whose problem is not one test's (imports, syntax); a file left without
 * tests goes too.
 */
async function dropFailing(ctx: GenContext, critical: Finding[]): Promise<string[]> {
  const dropped: string[] = [];
  const byFile = new Map<string, Finding[]>();
  // Only what this session generated: a finding in the changed source code is reported, never acted on here.
  for (const f of critical.filter((c) => ctx.state.generated_files.includes(c.file)))
    byFile.set(f.file, [...(byFile.get(f.file) ?? []), f]);
  for (const [file, findings] of byFile) {
    if (!existsSync(join(ctx.repo.root, file))) continue;
    const whole = findings.some((f) => !f.test);
    const paths = [...new Set(findings.flatMap((f) => (f.test ? [f.test] : [])))].map((t) => t.split(' > '));
    const out = await dropTests(ctx.repo, file, whole ? [] : paths, !whole);
    dropped.push(
      ...out.removed.map((n) => `${file}: "${n}"`),
      ...(out.fileGone ? [`${file} (${whole ? 'the file itself fails' : (out.why ?? 'removed')})`] : []),
    );
  }
  return dropped;
}

/** Records an L0 rejection once: the same finding sent back round after round is one rejected test. */
function reject(state: GenContext['state'], f: Finding): void {
  const test = f.test ? `${f.file}: "${f.test}"` : f.file;
  const reason = `${f.check}: ${f.message} (line ${f.line})`;
  const same = state.rejected.find((r) => r.gate === 'IMPL-001.3' && r.test === test && r.reason === reason);
  if (same) same.round = state.generate_round;
  else state.rejected.push({ test, file: f.file, gate: 'IMPL-001.3', reason, round: state.generate_round });
}

/**
 * IMPL-001.3, code validation (L0): the project's typecheck and linter, and fixcycle's own checks on the new
 * tests and the changed code. Critical findings go back to `generate`, at most `maxL0Rounds` rounds; after the
 * last, what still fails is dropped and the rest goes on.
 */
export async function validateRound(ctx: GenContext): Promise<void> {
  const { state } = ctx;
  const dir = ctx.session.paths.dir;
  const root = ctx.repo.root;
  // Shown by the generate round it checks; `attempt` counts the rounds this gate sent back.
  const round = state.generate_round;
  const attempt = state.l0_rounds + 1;
  node(ctx, 'IMPL-001.3', 'running', `round ${round}: typecheck, lint, imports, assertions`, { round });
  const pkg = await readContextPackage(dir);
  const tests = state.generated_files.filter((f) => existsSync(join(root, f)));
  const sources = pkg.changed_files.map((f) => f.file);
  const project = await projectChecks(
    root,
    [...tests, ...sources],
    ctx.options.testTimeoutMs,
    ctx.signal,
    pythonOf(ctx.runner.describe().full),
    ctx.runner.describe().env,
  );
  const findings = [...project.findings, ...(await staticChecks(root, tests, sources))];
  const { critical, linted, inChange: own } = l0Verdict(findings, tests, sources);
  const lintNote = `${reportedFindings("the project's linter", linted)}${reportedFindings('the changed code', own)}`;
  await writeJsonAtomic(genPaths(dir).l0Report(round), {
    round,
    attempt,
    ran: ['fixcycle static checks', ...project.ran],
    skipped: project.skipped,
    files: tests,
    findings,
  });
  await updateTask(dir, 'IMPL-001.3', (t) => {
    t.status = critical.length ? 'in_progress' : 'completed';
    Object.assign(t.context, {
      round,
      checks_ran: ['fixcycle static checks', ...project.ran],
      checks_skipped: project.skipped,
      findings: findings.map(findingLine),
    });
  });
  const skipped = project.skipped.length ? `; not run: ${project.skipped.join(', ')}` : '';
  if (critical.length === 0) {
    node(
      ctx,
      'IMPL-001.3',
      'done',
      `round ${round}: ${tests.length} file(s), 0 critical, ${findings.length - linted.length - own.length} warning(s)${lintNote}${skipped}`,
      { round, findings: findings.map(findingLine) },
    );
    state.step = 'quality';
    return ctx.save();
  }
  for (const f of critical) reject(state, f);
  node(ctx, 'IMPL-001.3', 'failed', `round ${round}: ${critical.length} critical finding(s)${lintNote}${skipped}`, {
    round,
    findings: critical.map(findingLine),
  });
  state.l0_rounds = attempt;
  if (attempt >= ctx.options.maxL0Rounds) {
    const dropped = await dropFailing(ctx, critical);
    // A finding can hide another (go vet stops at a missing import; tsc at a syntax error): check again what is
    // left and drop until it is clean, so nothing rejected reaches the quality gate.
    for (let again = 0; again < 3; again++) {
      const left = state.generated_files.filter((f) => existsSync(join(root, f)));
      if (left.length === 0) break;
      const recheck = await projectChecks(
        root,
        [...left, ...sources],
        ctx.options.testTimeoutMs,
        ctx.signal,
        pythonOf(ctx.runner.describe().full),
        ctx.runner.describe().env,
      );
      const more = [...recheck.findings, ...(await staticChecks(root, left, sources))].filter(
        (f) => f.severity === 'critical' && f.check !== 'lint' && left.includes(f.file),
      );
      if (more.length === 0) break;
      for (const f of more) reject(state, f);
      dropped.push(...(await dropFailing(ctx, more)));
    }
    ctx.emit({
      type: 'log',
      level: 'warn',
      message: `IMPL-001.3: ${attempt} rounds used; dropped what still fails L0: ${dropped.join(', ')}`,
    });
    state.generated_files = state.generated_files.filter((f) => existsSync(join(root, f)));
    state.step = 'quality';
  } else Object.assign(state, { feedback: critical.map(findingLine), feedback_kind: 'l0', step: 'generate' });
  await ctx.save();
}
