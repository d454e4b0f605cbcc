/**
 * Task runners and monorepo runners: commands that run the tests through something fixcycle cannot pass
 * flags through (`hereby test`, `make test`, `just test`, `lerna run test`, `npm test --workspaces`).
 * fixcycle runs them as the user wrote them and gives each runner under them its reporter from inside
 * (see inject-source.ts).
 */
export interface Delegator {
  /** `hereby`, `make`, `just`, `lerna`, `nx`, `turbo`, `npm workspaces`, `pnpm -r`, `yarn workspaces`. */
  tool: string;
  /** `task`: one project's tests through a task file; `monorepo`: each package's own test script. */
  kind: 'task' | 'monorepo';
}

const TASK_RUNNERS = new Set(['hereby', 'make', 'gmake', 'just', 'gulp', 'grunt', 'jake']);
const MONOREPO_RUNNERS = new Set(['lerna', 'nx', 'turbo']);
const WORKSPACE_FLAGS = /^(--workspaces|-ws|--workspace(=.*)?|-w|--recursive|-r|--filter(=.*)?|-F)$/;

/** The task or monorepo runner a command starts (its first word after env/npx peeling), or null. */
export function delegatorOf(argv: readonly string[]): Delegator | null {
  const [head, ...rest] = argv;
  if (head === undefined) return null;
  const bin = head.split('/').at(-1)!;
  if (TASK_RUNNERS.has(bin)) return { tool: bin, kind: 'task' };
  if (MONOREPO_RUNNERS.has(bin)) return { tool: bin, kind: 'monorepo' };
  if (bin === 'npm' && rest.some((word) => WORKSPACE_FLAGS.test(word) && word !== '-r' && word !== '--recursive'))
    return { tool: 'npm workspaces', kind: 'monorepo' };
  if (bin === 'pnpm' && rest.some((word) => WORKSPACE_FLAGS.test(word) && !word.startsWith('--workspace')))
    return { tool: 'pnpm -r', kind: 'monorepo' };
  if (bin === 'yarn' && rest[0] === 'workspaces') return { tool: 'yarn workspaces', kind: 'monorepo' };
  return null;
}
