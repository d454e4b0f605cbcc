import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { isTestFileProper } from '../source-files.js';
import type { Finding } from './finding.js';
import { goVetFindings } from './go-checks.js';
import { jsSyntaxFindings } from './js-syntax.js';
import { pythonImportFindings } from './python-imports.js';

const ESLINT_CONFIGS = [
  'eslint.config.js',
  'eslint.config.mjs',
  'eslint.config.cjs',
  'eslint.config.ts',
  '.eslintrc',
  '.eslintrc.js',
  '.eslintrc.cjs',
  '.eslintrc.json',
  '.eslintrc.yml',
  '.eslintrc.yaml',
];

function localBin(root: string, name: string): string | null {
  const path = join(root, 'node_modules', '.bin', name);
  return existsSync(path) ? path : null;
}

/** What ran: said on screen and in IMPL-001.3, so a missing typecheck is visible rather than silent. */
export interface ProjectCheckRun {
  ran: string[];
  skipped: string[];
  findings: Finding[];
}

/**
 * The project's own typecheck (`tsc --noEmit` with its tsconfig) and linter (eslint with its config), where it
 * has them. Errors in `files` (the new tests and the changed code) are critical; errors elsewhere existed before.
 */
export async function projectChecks(
  root: string,
  files: readonly string[],
  timeoutMs: number,
  signal?: AbortSignal,
  python = 'python3',
  env: Record<string, string> = {},
): Promise<ProjectCheckRun> {
  const out: ProjectCheckRun = { ran: [], skipped: [], findings: [] };
  await languageChecks(out, root, files, timeoutMs, signal, python, env);
  if (!files.some((f) => /\.(m|c)?[jt]sx?$/.test(f))) return out;
  const mine = new Set(files);
  const tsc = localBin(root, 'tsc');
  if (existsSync(join(root, 'tsconfig.json')) && tsc) {
    const r = await execa(tsc, ['--noEmit', '-p', 'tsconfig.json', '--pretty', 'false'], {
      cwd: root,
      reject: false,
      timeout: timeoutMs,
      cancelSignal: signal,
    });
    out.ran.push('tsc --noEmit');
    for (const m of r.stdout.matchAll(/^(.+?)\((\d+),\d+\): error (TS\d+): (.+)$/gm)) {
      const file = m[1]!.replace(/^\.\//, '');
      if (mine.has(file))
        out.findings.push({
          file,
          line: Number(m[2]),
          severity: 'critical',
          check: 'typecheck',
          message: `${m[3]}: ${m[4]}`,
        });
    }
  } else
    out.skipped.push(
      existsSync(join(root, 'tsconfig.json'))
        ? 'typecheck (tsconfig.json but no typescript in node_modules)'
        : 'typecheck (no tsconfig.json)',
    );
  const eslint = localBin(root, 'eslint');
  const config = ESLINT_CONFIGS.some((c) => existsSync(join(root, c)));
  const lintable = files.filter((f) => /\.(m|c)?[jt]sx?$/.test(f) && existsSync(join(root, f)));
  if (eslint && config && lintable.length > 0) {
    const r = await execa(eslint, ['--format', 'json', '--no-warn-ignored', ...lintable], {
      cwd: root,
      reject: false,
      timeout: timeoutMs,
      cancelSignal: signal,
    });
    out.ran.push('eslint');
    try {
      const results = JSON.parse(r.stdout) as {
        filePath: string;
        messages: { line?: number; severity: number; ruleId: string | null; message: string }[];
      }[];
      for (const result of results) {
        const file = lintable.find((f) => result.filePath.endsWith(f)) ?? result.filePath;
        for (const m of result.messages)
          out.findings.push({
            file,
            line: m.line ?? 1,
            severity: m.severity >= 2 ? 'critical' : 'warning',
            check: 'lint',
            message: `${m.ruleId ?? 'eslint'}: ${m.message}`,
          });
      }
    } catch {
      out.findings.push({
        file: lintable[0]!,
        line: 1,
        severity: 'warning',
        check: 'lint',
        message: `eslint did not answer with JSON (exit ${r.exitCode}): ${(r.stderr || r.stdout).split('\n')[0]}`,
      });
    }
  } else
    out.skipped.push(
      !config
        ? 'lint (no eslint config)'
        : !eslint
          ? 'lint (eslint config but no eslint in node_modules)'
          : 'lint (no script files)',
    );
  return out;
}

/**
 * Python's and Go's own reading of the new test files: what tsc is to TypeScript. `env` holds the variables the test
 * command sets (`PYTHONPATH=src pytest`, `GOFLAGS=-tags=x go test`): imports resolve as they do when the tests run.
 */
async function languageChecks(
  out: ProjectCheckRun,
  root: string,
  files: readonly string[],
  timeoutMs: number,
  signal: AbortSignal | undefined,
  python: string,
  env: Record<string, string>,
): Promise<void> {
  out.findings.push(
    ...(await jsSyntaxFindings(
      root,
      files.filter((f) => isTestFileProper(f)),
    )),
  );
  const py = files.filter((f) => f.endsWith('.py') && existsSync(join(root, f)));
  if (py.length > 0) {
    const r = await pythonImportFindings(python, root, py, env);
    if (r.ran) out.ran.push(`python imports (${python})`);
    else out.skipped.push(r.why!);
    out.findings.push(...r.findings);
  }
  const go = files.filter((f) => f.endsWith('_test.go') && existsSync(join(root, f)));
  if (go.length > 0) {
    const r = await goVetFindings(root, go, timeoutMs, signal, env);
    if (r.ran) out.ran.push('go vet');
    else out.skipped.push(r.why!);
    out.findings.push(...r.findings);
  }
}
