import { execa } from 'execa';
import { parseZeroContextDiff, type ChangedFile } from '../gen/changes.js';
import { isSourceFile } from '../gen/source-files.js';
import type { Scope } from './scope.js';

/** The changed source files of the scope with their changed lines (what coverage is measured on). */
export async function changedLines(root: string, scope: Scope): Promise<ChangedFile[]> {
  const args =
    scope.against === 'staged'
      ? ['diff', '-U0', '--no-color', '--no-renames', '--cached']
      : ['diff', '-U0', '--no-color', '--no-renames', scope.base!, scope.head];
  const diff = (await execa('git', args, { cwd: root, reject: false })).stdout;
  return [...parseZeroContextDiff(diff)]
    .filter(([file, hunks]) => isSourceFile(file) && hunks.length > 0)
    .map(([file, hunks]) => ({
      file,
      hunks,
      lines: hunks.flatMap((h) => Array.from({ length: h.count }, (_, i) => h.start + i)),
    }))
    .sort((a, b) => a.file.localeCompare(b.file));
}
