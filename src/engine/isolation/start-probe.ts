import { gitOut } from './git-run.js';
import { unmergedPaths } from './snapshot.js';

/** What a new isolated session asks git before it starts (see beginIsolatedSession). */
export interface StartProbe {
  /** HEAD's commit and its tree. */
  base: string;
  tree: string;
  /** The common git directory, as git names it (relative to the root, or absolute). */
  common: string;
  /** The user's branch (`refs/heads/main`). */
  userBranch: string;
  /** The superproject's working tree when the repository is a submodule's checkout. */
  superproject?: string;
  /** Paths with unresolved merge conflicts in the user's index. */
  unmerged: string[];
  /** fixcycle's session branches (`refs/heads/fixcycle...`): where a new one goes, and a leftover of the same id. */
  refs: string[];
}

/**
 * The questions about the repository every new isolated session asks, none of which depends on the session: the
 * CLI asks them beside its first git status (see openRunRepo), so the first run does not wait for them after it.
 * One rev-parse answers most. `changed`: the uncommitted files git status is listing.
 */
export async function probeStart(root: string, changed?: Promise<string[]>): Promise<StartProbe> {
  const [probe, unmerged, refs] = await Promise.all([
    gitOut(root, [
      'rev-parse',
      'HEAD',
      'HEAD^{tree}',
      '--git-common-dir',
      '--symbolic-full-name',
      'HEAD',
      '--show-superproject-working-tree',
    ]),
    // A clean git status lists no unmerged path: only a dirty tree asks git for them.
    changed
      ? changed.then(
          (files) => (files.length === 0 ? [] : unmergedPaths(root)),
          () => unmergedPaths(root),
        )
      : unmergedPaths(root),
    gitOut(root, ['for-each-ref', '--format=%(refname)', 'refs/heads/fixcycle', 'refs/heads/fixcycle-session']),
  ]);
  const [base, tree, common, userBranch, superproject] = probe.trim().split('\n') as [
    string,
    string,
    string,
    string,
    string?,
  ];
  return {
    base,
    tree,
    common,
    userBranch,
    ...(superproject ? { superproject } : {}),
    unmerged,
    refs: refs.split('\n').filter(Boolean),
  };
}
