import { readFileSync } from 'node:fs';
import { changedCoverage, lineRanges, type CoverageData } from './coverage/model.js';
import type { CoverageLine } from './events.js';
import type { GenContext } from './gen-context.js';
import { genPaths } from './paths.js';
import type { ContextPackage } from './phase-context.js';

/** The suite's coverage before generation, as the context phase saved it (null: not measured). */
export async function readBefore(dir: string): Promise<CoverageData | null> {
  try {
    return JSON.parse(readFileSync(genPaths(dir).coverageBefore, 'utf8')) as CoverageData;
  } catch {
    return null;
  }
}

/** The changed lines' coverage before and after, per changed file, and the files still below the targets. */
export function coverageLines(
  pkg: ContextPackage,
  before: CoverageData | null,
  after: CoverageData,
  ctx: GenContext,
): { lines: CoverageLine[]; gaps: string[] } {
  const gaps: string[] = [];
  const lines = pkg.changed_files.map((f) => {
    const b = before ? changedCoverage(before, f.file, f.lines) : null;
    const a = changedCoverage(after, f.file, f.lines);
    const low = (a.lines ?? 100) < ctx.options.coverageLines || (a.branches ?? 100) < ctx.options.coverageBranches;
    const note =
      a.lines === null
        ? `none of its ${f.lines.length} changed line(s) is executable (comments, blank lines, declarations): nothing to cover`
        : undefined;
    if (low)
      gaps.push(
        `${f.file}: ${a.lines ?? '-'}% lines (target ${ctx.options.coverageLines}%), ${a.branches ?? '-'}% branches (target ${ctx.options.coverageBranches}%); uncovered lines ${lineRanges(a.uncovered) || 'none (branches only)'}`,
      );
    return {
      file: f.file,
      linesBefore: b?.lines ?? null,
      linesAfter: a.lines,
      branchesBefore: b?.branches ?? null,
      branchesAfter: a.branches,
      targetLines: ctx.options.coverageLines,
      targetBranches: ctx.options.coverageBranches,
      ...(note ? { note } : {}),
    };
  });
  return { lines, gaps };
}
