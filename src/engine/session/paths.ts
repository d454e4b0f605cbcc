import { existsSync, lstatSync, readFileSync, readlinkSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';

/** The Claude-Code-Workflow folder at the repository root that holds the sessions. */
export const WORKFLOW_DIR = '.workflow';
export const ACTIVE_DIR = join(WORKFLOW_DIR, 'active');

/** The git directory of the work tree at `root`: `.git` itself, or where a `.git` file points (a linked worktree, a submodule). */
export function gitDirOf(root: string): string | null {
  const dotGit = join(root, '.git');
  try {
    if (lstatSync(dotGit).isDirectory()) return dotGit;
    const line = /^gitdir: (.+)$/m.exec(readFileSync(dotGit, 'utf8'));
    return line ? resolve(root, line[1]!.trim()) : null;
  } catch {
    return null;
  }
}

/** Where the session folder a `.workflow` link stands for lives: inside the git directory, out of every tool's reach. */
export function keptWorkflowDir(gitDir: string): string {
  return join(gitDir, 'fixcycle', WORKFLOW_DIR);
}

/**
 * The real folder behind the repository's `.workflow`: a plain folder (an older session, Claude-Code-Workflow's)
 * as it is, a link's target, and the folder in the git directory while its link is out of the tree (while the
 * user's command runs). fixcycle and its panes read and write here, never through the link. Not remembered: a
 * team's worktree comes and goes under the same name.
 */
export function workflowDir(root: string): string {
  const link = join(root, WORKFLOW_DIR);
  try {
    return lstatSync(link).isSymbolicLink() ? resolve(root, readlinkSync(link)) : link;
  } catch {
    const gitDir = gitDirOf(root);
    return gitDir && existsSync(keptWorkflowDir(gitDir)) ? keptWorkflowDir(gitDir) : link;
  }
}

/**
 * A path inside the real session folder as the repository's `.workflow` names it (for agents, which run while the
 * link is in the tree and are told the paths they always were); any other path unchanged.
 */
export function throughLink(root: string, path: string): string {
  const real = workflowDir(root);
  const link = join(root, WORKFLOW_DIR);
  return real !== link && path.startsWith(real + sep) ? join(link, path.slice(real.length + 1)) : path;
}

/** The real `.workflow/active` of the repository at `root` (see workflowDir). */
export function activeDir(root: string): string {
  return join(workflowDir(root), 'active');
}

export const SESSION_PREFIX = 'WFS-test-';

/** Where each file of one session lives. */
export interface SessionPaths {
  dir: string;
  workflowSession: string;
  taskDir: string;
  processDir: string;
  summariesDir: string;
  iterationState: string;
  testResults: string;
  testOutput: string;
  fixHistory: string;
  baseline: string;
  agentCalls: string;
  lock: string;
  task(iteration: number): string;
  analysis(iteration: number): string;
  cliOutput(iteration: number): string;
  failures(iteration: number): string;
}

export function sessionPaths(repo: string, sessionId: string): SessionPaths {
  const dir = join(activeDir(repo), sessionId);
  const processDir = join(dir, '.process');
  const taskDir = join(dir, '.task');
  return {
    dir,
    workflowSession: join(dir, 'workflow-session.json'),
    taskDir,
    processDir,
    summariesDir: join(dir, '.summaries'),
    iterationState: join(processDir, 'iteration-state.json'),
    testResults: join(processDir, 'test-results.json'),
    testOutput: join(processDir, 'test-output.log'),
    fixHistory: join(processDir, 'fix-history.json'),
    baseline: join(processDir, 'baseline-tests.json'),
    agentCalls: join(processDir, 'agent-calls.json'),
    lock: join(dir, '.lock'),
    task: (n) => join(taskDir, `IMPL-fix-${n}.json`),
    analysis: (n) => join(processDir, `iteration-${n}-analysis.md`),
    cliOutput: (n) => join(processDir, `iteration-${n}-cli-output.txt`),
    failures: (n) => join(processDir, `iteration-${n}-failures.json`),
  };
}

/** `WFS-test-<name>` from a user-given name or the current time. */
export function newSessionId(name: string | undefined, now = new Date()): string {
  const slug = (name ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '-');
  return `${SESSION_PREFIX}${slug || stamp}`;
}
