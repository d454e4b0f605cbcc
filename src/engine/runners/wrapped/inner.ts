import { join } from 'node:path';
import { readProject, type ProjectFacts } from '../project.js';
import type { DelegatedCall } from '../peel-command.js';
import { workspacePackages } from './workspaces.js';

/** The runners whose reports fixcycle can give from inside a task or monorepo runner. */
export type InjectableRunner = 'mocha' | 'jest' | 'vitest';

const CONFIG_SIGNS: { runner: InjectableRunner; sign: RegExp }[] = [
  { runner: 'vitest', sign: /^vitest\.(config|workspace)\.[cm]?[jt]s$/ },
  { runner: 'jest', sign: /^jest\.config\.([cm]?[jt]s|json)$/ },
  { runner: 'mocha', sign: /^\.mocharc(\.[a-z]+)?$/ },
];
const SCRIPT_VERBS = new Set(['run', 'run-many', 'exec', 'workspaces', 'foreach', 'workspace', 'test', 't']);

/** What a task or monorepo runner leads to: the test runner under it, and each package's own call. */
export interface Delegation<C extends { runner: string }> {
  runner: C['runner'];
  /** The script each package runs (`test` for `lerna run test`); null for a task runner. */
  script: string | null;
  packages: { dir: string; call: C | null }[];
}

/**
 * Finds the test runner under a task runner (from the project's runner config and dependencies: hereby's
 * tasks are code) or a monorepo runner (from the script it runs in each package, followed with `analyse`).
 */
export function delegation<C extends { runner: string }>(
  peeled: DelegatedCall,
  project: ProjectFacts,
  analyse: (line: string, project: ProjectFacts) => C | { unknown: string },
): Delegation<C> | { unknown: string } {
  const shown = peeled.argv.join(' ');
  if (peeled.delegator.kind === 'task') {
    const runner = peeled.delegator.runner ?? taskRunnerGuess(project);
    if (!runner)
      return {
        unknown: `"${shown}" runs the tests through ${peeled.delegator.tool}, and this project has none of the runners fixcycle reads from under it (mocha, jest, vitest)`,
      };
    return { runner: runner as Delegation<C>['runner'], script: null, packages: [] };
  }
  const dirs = workspacePackages(project);
  const projects = dirs.map((dir) => ({ dir, facts: readProject(join(project.cwd, dir)) }));
  const script = scriptName(
    peeled.argv,
    projects.map((p) => p.facts),
  );
  const packages = projects.map(({ dir, facts }) => {
    const line = facts.scripts[script];
    if (line === undefined || /no test specified/.test(line)) return { dir, call: null };
    const call = analyse(line, facts);
    return { dir, call: 'unknown' in call ? null : call };
  });
  const counts = new Map<string, number>();
  for (const { call } of packages) if (call) counts.set(call.runner, (counts.get(call.runner) ?? 0) + 1);
  const runner = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
  if (!runner) {
    return {
      unknown: `"${shown}" runs the "${script}" script of each package (${peeled.delegator.tool}), and no package's script (of ${dirs.length}) leads to a test runner fixcycle knows`,
    };
  }
  return { runner: runner as Delegation<C>['runner'], script, packages };
}

function taskRunnerGuess(project: ProjectFacts): InjectableRunner | null {
  for (const { runner, sign } of CONFIG_SIGNS) {
    if (
      ['', '.config/', 'test/'].some(
        (dir) => project.exists(dir) && listed(project, dir).some((name) => sign.test(name)),
      )
    )
      return runner;
  }
  return (['vitest', 'jest', 'mocha'] as const).find((runner) => project.dependencies.has(runner)) ?? null;
}

function listed(project: ProjectFacts, dir: string): string[] {
  return project.list?.(dir) ?? [];
}

/** The package script a monorepo command runs: the first word naming a script some package has, else `test`. */
function scriptName(argv: readonly string[], projects: readonly ProjectFacts[]): string {
  const words = argv.slice(1).filter((word) => !word.startsWith('-') && !SCRIPT_VERBS.has(word));
  const named = words
    .map((word) => word.replace(/^--target=/, ''))
    .find((word) => projects.some((p) => p.scripts[word] !== undefined));
  const target = argv.find((word) => word.startsWith('--target='))?.slice('--target='.length);
  return target ?? named ?? 'test';
}
