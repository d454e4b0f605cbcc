import { basename, join } from 'node:path';
import type { Invocation } from '../../runners/invocation.js';

export type CoverageWrapper = 'c8' | 'nyc';

/** The coverage wrapper a command starts with (`c8 node --test`, `nyc mocha`), if any. */
export function wrapperOf(argv: readonly string[]): CoverageWrapper | null {
  const head = basename(argv[0] ?? '');
  return head === 'c8' || head === 'nyc' ? head : null;
}

/** Where a wrapper's report lands inside the coverage run's folder. */
export const wrapperReportDir = (dir: string, wrapper: CoverageWrapper): string => join(dir, wrapper);

/** The wrapper's options (each taking a value) that say where its reports and raw data go: given twice, c8 and nyc take an array and fail. */
const WHERE: Record<CoverageWrapper, Set<string>> = {
  c8: new Set(['--reports-dir', '--report-dir', '-o', '--temp-directory']),
  nyc: new Set(['--report-dir', '--temp-dir', '-t']),
};

function withoutWhere(words: string[], wrapper: CoverageWrapper): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (!WHERE[wrapper].has(word.split('=')[0]!)) out.push(word);
    else if (!word.includes('=')) i++; // its value is the next word
  }
  return out;
}

/**
 * The user's own c8 or nyc, told to add an istanbul JSON report and to write its reports and raw data into
 * fixcycle's folder instead of the project's (the user's reporters still run, into that folder). c8 gives its
 * child its own NODE_V8_COVERAGE, so fixcycle's would get nothing: its report is the one to read. The options
 * replace the user's own report and data folders (`wrapperWords`: the wrapper and its options, as the script wrote them).
 */
export function withWrapperReport(inv: Invocation, wrapper: CoverageWrapper, wrapperWords: number, dir: string): Invocation {
  const out = wrapperReportDir(dir, wrapper);
  const own = wrapper === 'c8' ? ['--reporter=json', `--reports-dir=${out}`, `--temp-directory=${join(out, 'tmp')}`] : ['--reporter=json', `--report-dir=${out}`, `--temp-dir=${join(out, 'tmp')}`];
  return { ...inv, argv: [...withoutWhere(inv.argv.slice(0, wrapperWords), wrapper), ...own, ...inv.argv.slice(wrapperWords)] };
}
