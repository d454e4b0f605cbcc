import { Repo } from './git.js';
import { probeStart, type StartProbe } from './isolation/start-probe.js';

/** The repository as a run starts on it: opened, its session folder kept out of git, git status under way. */
export interface OpenedRepo {
  repo: Repo;
  /** The uncommitted changes when the run started. */
  changed: Promise<string[]>;
  /** A new isolated session's questions to git (see probeStart), asked beside git status. */
  probe?: Promise<StartProbe>;
}

/**
 * The git work every run starts with, in a module of its own: the CLI starts it while the engine's modules
 * load, so the git calls no longer wait for them. `isolated`: the run starts a new session in a worktree of its own.
 */
export async function openRunRepo(cwd: string, options: { isolated?: boolean } = {}): Promise<OpenedRepo> {
  const repo = await Repo.open(cwd);
  // The session folder's place first (a link into the git directory), so that the session checks after it see
  // the sessions kept there, and git status does not list the folder.
  await repo.excludeSessionFolder({ link: true });
  const changed = repo.changedFiles();
  // Awaited where the dirty-tree check is; until then a failure must not count as unhandled.
  changed.catch(() => undefined);
  if (!options.isolated) return { repo, changed };
  const probe = probeStart(repo.root, changed);
  probe.catch(() => undefined);
  return { repo, changed, probe };
}
