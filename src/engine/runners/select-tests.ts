import { findSelectAllTrigger } from '../affected/select-all-triggers.js';
import { nameFiles } from '../affected/selection.js';
import { inSuiteForm } from '../affected/suite-form.js';

/**
 * Runners whose selection names test files as their report does: the selection is put in the form the full run ran.
 * Not go (a selection names package folders) nor pytest (its report may name a file from its rootdir).
 */
const RUNS_FILES = new Set(['vitest', 'mocha', 'tape', 'node-test', 'ava', 'tap']);

/** What an affected run runs: the runner's related mode, some test files, or the full suite. */
export type TestFileSelection =
  | { mode: 'related'; files: string[]; reason: string }
  | { mode: 'files'; files: string[]; reason: string }
  | { mode: 'full'; reason: string };

/** The runner facts the selection needs. */
export interface SelectableRunner {
  name: string;
  /** True when the runner has a fast related-tests mode worth using (jest's, cached by its haste map). */
  preferRelated: boolean;
}

/**
 * The seam where affected-test selection plugs in: which tests an iteration that changed `changedFiles`
 * runs. jest uses its own related mode; other runners get the import-graph selection of src/engine/affected.
 * The last failures are always in; one that cannot be placed in a file makes the run a full one. `suiteFiles`:
 * the files the full run reported tests from; the selection keeps to them (see inSuiteForm).
 */
export async function selectTestFiles(
  cwd: string,
  runner: SelectableRunner,
  changedFiles: string[],
  lastFailures: { id: string; file?: string }[],
  suiteFiles?: readonly string[],
): Promise<TestFileSelection> {
  const unplaced = lastFailures.find((failure) => !failure.file);
  if (unplaced)
    return {
      mode: 'full',
      reason: `the last failure "${unplaced.id}" has no file to re-run it by; running every test`,
    };
  const failedFiles = [...new Set(lastFailures.map((failure) => failure.file!))];
  if (runner.preferRelated) {
    const trigger = findSelectAllTrigger(changedFiles);
    if (trigger)
      return {
        mode: 'full',
        reason: `${trigger.file} is ${trigger.kind}, which every test depends on; running every test`,
      };
    const files = [...new Set([...changedFiles, ...failedFiles])];
    return {
      mode: 'related',
      files,
      reason: `${runner.name}'s related-tests mode on ${changedFiles.length} changed file(s), plus ${failedFiles.length} test file(s) that failed last time`,
    };
  }
  // Loaded on first use: the import graph (oxc-resolver, es-module-lexer) is not needed by full runs.
  const { selectAffectedTests } = await import('../affected/index.js');
  const selection = await selectAffectedTests({ cwd, runner: runner.name, changedFiles, lastFailedFiles: failedFiles });
  if (selection.files === 'all') return { mode: 'full', reason: selection.reason };
  if (!suiteFiles?.length || !RUNS_FILES.has(runner.name))
    return { mode: 'files', files: selection.files, reason: selection.reason };
  // Only what the user's own command runs as tests, in the form it runs them.
  const form = inSuiteForm(selection.files, suiteFiles);
  const notes = [
    ...form.compiled.map(([source, runs]) => `${source} runs as ${runs}`),
    ...(form.leftOut.length > 0
      ? [
          `left out ${nameFiles(form.leftOut)}: the full test run reports no test from ${form.leftOut.length > 1 ? 'them' : 'it'}`,
        ]
      : []),
  ];
  return {
    mode: 'files',
    files: form.files,
    reason: notes.length > 0 ? `${selection.reason} ${notes.join('; ')}.` : selection.reason,
  };
}
