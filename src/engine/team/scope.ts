import { defaultBranch, git } from '../gen/changes.js';
import { isSourceFile, isTestSide } from '../gen/source-files.js';

export type PipelineName = 'targeted' | 'standard' | 'comprehensive';
export const PIPELINES: readonly PipelineName[] = ['targeted', 'standard', 'comprehensive'];

/** What changed, against what, and which modules it spans. */
export interface Scope {
  /** `merge-base` with the default branch, `HEAD~1`, or the staged changes. */
  against: 'merge-base' | 'HEAD~1' | 'staged';
  base: string | null;
  head: string;
  describedAs: string;
  files: string[];
  modules: string[];
}

const PACKAGE_ROOTS = new Set(['packages', 'apps', 'libs', 'crates', 'services']);
const SOURCE_ROOTS = new Set(['src', 'lib', 'source', 'app', 'pkg', 'internal', 'cmd']);

/**
 * The module a file belongs to: its package in a monorepo (`packages/a/...` is `packages/a`), else its top-level
 * source folder (`src/auth/x.ts` is `src/auth`, a file straight in `src/` is `src`), else its top-level folder.
 */
export function moduleOf(file: string): string {
  const parts = file.split('/');
  if (parts.length >= 3 && PACKAGE_ROOTS.has(parts[0]!)) return `${parts[0]}/${parts[1]}`;
  if (SOURCE_ROOTS.has(parts[0]!)) return parts.length >= 3 ? `${parts[0]}/${parts[1]}` : parts[0]!;
  return parts.length >= 2 ? parts[0]! : '.';
}

/** The files that count for scope: code and tests, not docs, lockfiles or fixcycle's own folder. */
function counts(file: string): boolean {
  return !file.startsWith('.workflow/') && (isSourceFile(file) || isTestSide(file));
}

function scopeOf(
  against: Scope['against'],
  base: string | null,
  head: string,
  describedAs: string,
  names: string,
): Scope {
  const files = names
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean)
    .filter(counts)
    .sort();
  const modules = [...new Set(files.filter((f) => !isTestSide(f)).map(moduleOf))].sort();
  return { against, base, head, describedAs, files, modules };
}

/** The change to test: `git diff --name-only` against the merge base, else HEAD~1, else the staged changes. */
export async function detectScope(root: string): Promise<Scope> {
  const head = (await git(root, ['rev-parse', 'HEAD'])).out;
  const branch = (await git(root, ['rev-parse', '--abbrev-ref', 'HEAD'])).out;
  const main = await defaultBranch(root);
  if (main && main !== branch && main !== `origin/${branch}`) {
    const base = await git(root, ['merge-base', main, 'HEAD']);
    if (base.ok && base.out && base.out !== head) {
      const names = await git(root, ['diff', '--name-only', '--no-renames', base.out, 'HEAD']);
      return scopeOf(
        'merge-base',
        base.out,
        head,
        `the change on ${branch} since its merge base with ${main} (${base.out.slice(0, 7)})`,
        names.out,
      );
    }
  }
  const parent = await git(root, ['rev-parse', '--verify', '--quiet', 'HEAD~1']);
  if (parent.ok) {
    const names = await git(root, ['diff', '--name-only', '--no-renames', parent.out, 'HEAD']);
    const scope = scopeOf('HEAD~1', parent.out, head, `the last commit (${head.slice(0, 7)})`, names.out);
    if (scope.files.length > 0) return scope;
  }
  const staged = await git(root, ['diff', '--name-only', '--no-renames', '--cached']);
  const scope = scopeOf('staged', null, head, 'the staged changes', staged.out);
  return scope.files.length === 0 && parent.ok
    ? { ...scope, describedAs: `the last commit (${head.slice(0, 7)}) and the staged changes` }
    : scope;
}

/** The pipeline the scope calls for, and why, by the design's thresholds. */
export function choosePipeline(scope: Pick<Scope, 'files' | 'modules'>): { pipeline: PipelineName; why: string } {
  const f = scope.files.length;
  const m = scope.modules.length;
  if (f <= 3 && m <= 1) return { pipeline: 'targeted', why: `${f} file(s) <= 3 and ${m} module(s) <= 1` };
  if (f <= 10 && m <= 3) return { pipeline: 'standard', why: `${f} file(s) <= 10 and ${m} module(s) <= 3` };
  return { pipeline: 'comprehensive', why: `${f} file(s) > 10 or ${m} module(s) > 3` };
}
