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
  /** The runner a wrapper script starts (`ts-scripts test` spawns vitest), which the project does not name. */
  runner?: 'mocha' | 'jest' | 'vitest';
}

/**
 * Wrapper scripts: a package's CLI that runs the project's checks (prettier, tsc) and then spawns the runner it
 * depends on itself, with its own flags. The runner is the wrapper's, not one in the project's dependencies.
 * Only wrappers that start the runner's CLI as a child process can be listed, so the preload gives the report
 * (kcd-scripts and react-scripts call jest in their own process, which the preload cannot reach: they forward
 * jest's report arguments instead, see in-process.ts), and only those tried with the real wrapper are.
 */
const WRAPPER_SCRIPTS: Record<string, { verbs: string[]; runner: NonNullable<Delegator['runner']> }> = {
  // @borderless/ts-scripts: `test` runs tsc --build, prettier --check, tsc --noEmit, then `vitest run`.
  'ts-scripts': { verbs: ['test', 'specs'], runner: 'vitest' },
};

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
  const wrapper = WRAPPER_SCRIPTS[bin];
  if (wrapper && rest[0] !== undefined && wrapper.verbs.includes(rest[0]))
    return { tool: `${bin} ${rest[0]}`, kind: 'task', runner: wrapper.runner };
  if (bin === 'npm' && rest.some((word) => WORKSPACE_FLAGS.test(word) && word !== '-r' && word !== '--recursive'))
    return { tool: 'npm workspaces', kind: 'monorepo' };
  if (bin === 'pnpm' && rest.some((word) => WORKSPACE_FLAGS.test(word) && !word.startsWith('--workspace')))
    return { tool: 'pnpm -r', kind: 'monorepo' };
  if (bin === 'yarn' && rest[0] === 'workspaces') return { tool: 'yarn workspaces', kind: 'monorepo' };
  return null;
}
