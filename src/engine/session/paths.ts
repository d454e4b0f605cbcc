import { join } from 'node:path';

/** Folder under the repository that holds every session, as in Claude-Code-Workflow. */
/** The Claude-Code-Workflow folder at the repository root that holds the sessions. */
export const WORKFLOW_DIR = '.workflow';
export const ACTIVE_DIR = join(WORKFLOW_DIR, 'active');
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
  const dir = join(repo, ACTIVE_DIR, sessionId);
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
