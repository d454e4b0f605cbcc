import { readFileSync } from 'node:fs';
import { writeTextAtomic } from '../session/atomic.js';
import type { CoverageLine } from './events.js';
import type { GenContext } from './gen-context.js';
import { genPaths } from './paths.js';
import { readContextPackage } from './phase-analysis.js';
import { mutationLines, type MutationReport } from './mutation/mutation-report.js';

/** The mutation check's lines, per changed module (what the kept tests kill that the existing suite does not). */
function mutationSection(dir: string): string {
  try {
    const report = JSON.parse(readFileSync(genPaths(dir).qualityReport, 'utf8')) as { mutation?: MutationReport };
    return report.mutation
      ? mutationLines(report.mutation)
          .map((l) => `- ${l}`)
          .join('\n')
      : '- not run';
  } catch {
    return '- the quality gate did not finish';
  }
}

function coverageTable(dir: string): string {
  try {
    const report = JSON.parse(readFileSync(genPaths(dir).qualityReport, 'utf8')) as {
      coverage: CoverageLine[] | null;
      note?: string;
      gaps?: string[];
    };
    if (!report.coverage) return `Coverage not measured: ${report.note ?? 'no coverage tool'}.`;
    const rows = report.coverage.map((c) =>
      c.note
        ? `| ${c.file} | ${c.note} | | |`
        : `| ${c.file} | ${c.linesBefore ?? '-'}% → ${c.linesAfter ?? '-'}% | ${c.branchesBefore ?? '-'}% → ${c.branchesAfter ?? '-'}% | ${c.targetLines}% / ${c.targetBranches}% |`,
    );
    return [
      '| changed file | lines (before → after) | branches (before → after) | target |',
      '|---|---|---|---|',
      ...rows,
      ...(report.gaps?.length ? ['', 'Still below target:', ...report.gaps.map((g) => `- ${g}`)] : []),
    ].join('\n');
  } catch {
    return 'Coverage: the quality gate did not finish.';
  }
}

/** Post-completion: .summaries/gen-summary.md with coverage before and after, the tests kept and rejected, and what to do next. */
export async function writeGenSummary(ctx: GenContext): Promise<string> {
  const dir = ctx.session.paths.dir;
  const { state } = ctx;
  const pkg = await readContextPackage(dir);
  const files = pkg.changed_files.map((f) => f.file);
  const failingKept = state.kept.filter((k) => /fails/.test(k.note));
  const text = `# Test generation summary: ${ctx.session.id}

Input: ${pkg.input.description} (${pkg.input.mode} mode)
Outcome: ${state.outcome ?? 'not finished'}
Generate rounds: ${state.generate_round}; tests committed in ${state.gen_commit ?? '(no commit)'}

## Coverage of the changed lines
${coverageTable(dir)}

## Mutants of the changed lines
${mutationSection(dir)}

## Tests kept (${state.kept.length})
${state.kept.map((k) => `- ${k.test}: ${k.note}${k.new_lines ? ` (${k.new_lines} new line(s) of the changed code)` : ''}`).join('\n') || '- none'}

## Tests rejected (${state.rejected.length})
${state.rejected.map((r) => `- [${r.gate}, round ${r.round}] ${r.test}: ${r.reason}`).join('\n') || '- none'}

## Expansion suggestions
- test: ${failingKept.length ? `review the ${failingKept.length} generated test(s) that failed before the fix loop` : `add ${pkg.coverage.measured ? 'tests for the lines still uncovered' : 'a coverage tool so the coverage gate can run'}`}
- enhance: ${state.rejected.some((r) => r.reason.startsWith('flaky')) ? 'make the code under the flaky tests deterministic (time, randomness, shared state)' : `harden error handling in ${files.join(', ')}`}
- refactor: ${state.rejected.some((r) => r.reason.startsWith('redundant')) ? 'merge tests that cover the same lines' : `split the largest function of ${files[0] ?? 'the change'} if its tests are hard to write`}
- doc: describe the behaviour the new tests pin down in ${files[0] ?? 'the changed code'}'s documentation
`;
  await writeTextAtomic(genPaths(dir).summary, text);
  return genPaths(dir).summary;
}
