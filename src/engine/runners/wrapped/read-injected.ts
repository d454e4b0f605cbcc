import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { ReportFormat } from '../../report/parse-outcome.js';
import type { NormalizedResult, RunError, TestCase } from '../../types.js';
import { parseRunnerReport } from '../report-access.js';

const FORMATS: Record<string, ReportFormat> = { mocha: 'mocha-json', jest: 'jest-json', vitest: 'vitest-json' };
const REPORT = /^(mocha|jest|vitest)-(\d+)\.json$/;

/**
 * The reports the runners under a task or monorepo runner wrote through fixcycle's preload, one per runner
 * process, as one result: each test carries its package (the folder its runner ran in, relative to `root`),
 * and ids are relative to `root` so they stay the same whichever folder a later run starts the runner in.
 * A runner that started and wrote no report is an error naming its package, unless `stopsAtFailure` (pnpm -r,
 * lerna) and another package failed: then the command stopped it, and its tests are not run rather than crashed.
 * Null when no runner started.
 */
export function readInjectedReports(dir: string, root: string, stopsAtFailure = false): NormalizedResult | null {
  const names = existsSync(dir) ? readdirSync(dir).sort() : [];
  const metas = names.filter((name) => /^(mocha|jest|vitest)-\d+\.meta\.json$/.test(name));
  if (metas.length === 0) return null;
  const tests: TestCase[] = [];
  const errors: RunError[] = [];
  const unfinished: RunError[] = [];
  let truncated = false;
  for (const metaName of metas) {
    const meta = JSON.parse(readFileSync(join(dir, metaName), 'utf8')) as { runner: string; cwd: string };
    const pkg = relative(root, meta.cwd).split('\\').join('/') || '.';
    const reportName = metaName.replace(/\.meta\.json$/, '.json');
    const where = pkg === '.' ? 'the project root' : `package ${pkg}`;
    const text = names.includes(reportName) ? readFileSync(join(dir, reportName), 'utf8') : '';
    if (!REPORT.test(reportName) || text.trim() === '') {
      unfinished.push({
        message: `${meta.runner} in ${where} wrote no report: it crashed or could not load its config or tests`,
        ...(pkg === '.' ? {} : { file: pkg }),
      });
      continue;
    }
    const outcome = parseRunnerReport(text, FORMATS[meta.runner]!, root);
    if (!outcome.ok) {
      errors.push({ message: `${meta.runner} in ${where}: ${outcome.error}` });
      continue;
    }
    truncated ||= outcome.result.truncated;
    for (const test of outcome.result.tests)
      tests.push(pkg === '.' ? test : { ...test, package: pkg, id: inPackage(test.id, pkg) });
    for (const error of outcome.result.errors)
      errors.push(pkg === '.' ? error : { ...error, message: `${where}: ${error.message}` });
  }
  const otherFailed = errors.length > 0 || tests.some((test) => test.status === 'failed');
  if (!(stopsAtFailure && otherFailed)) errors.push(...unfinished);
  return { format: 'injected', tests, errors, truncated };
}

/** An id that names its package: ids from a report that gives no file get the package in front. */
export function inPackage(id: string, pkg: string): string {
  return id.startsWith(`${pkg}/`) ? id : `${pkg}::${id}`;
}
