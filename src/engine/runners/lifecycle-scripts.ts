import { plainArgv, splitCommands, tokenize } from './command-line.js';
import type { ProjectFacts } from './project.js';

/** What the package manager runs around a script: `pre<name>` before it, `post<name>` after it when it passed. */
export interface LifecycleParts {
  setup: string[][];
  after: { argv: string[]; when: '&&' }[];
}

/**
 * The `pre<name>` and `post<name>` scripts the package manager runs around a script: npm and yarn 1 do; pnpm
 * (6 and later) only with `enable-pre-post-scripts=true`, yarn 2+ never. `manager` is the one the command
 * names (`npm test`, `yarn test`); for the test script found in package.json, the one the project uses.
 */
export function lifecycleParts(
  project: ProjectFacts,
  name: string,
  manager: 'npm' | 'yarn' | 'pnpm' | null = null,
): LifecycleParts {
  if (!runsPrePostScripts(project, manager)) return { setup: [], after: [] };
  const pre = project.scripts[`pre${name}`];
  const post = project.scripts[`post${name}`];
  return {
    setup: pre === undefined ? [] : scriptSteps(`pre${name}`, pre, manager ?? 'npm'),
    after:
      post === undefined
        ? []
        : scriptSteps(`post${name}`, post, manager ?? 'npm').map((argv) => ({ argv, when: '&&' as const })),
  };
}

/**
 * A lifecycle script as the commands it runs, when it is a plain `a && b` chain, so a linter shows as the
 * check it is (`npm run lint`, `eslint .`); otherwise the script itself, through the package manager.
 */
function scriptSteps(name: string, script: string, manager: string): string[][] {
  const commands = splitCommands(tokenize(script));
  const steps: string[][] = [];
  for (const [index, command] of commands.entries()) {
    const plain = plainArgv(command.words);
    const chained = command.next === '&&' || (command.next === null && index === commands.length - 1);
    // What only a shell runs right (globs, variables set for one command, `||`) stays the script npm runs.
    if ('error' in plain || plain.globs.size > 0 || !chained || /^[A-Za-z_][A-Za-z0-9_]*=/.test(plain.argv[0] ?? ''))
      return [[manager, 'run', name]];
    if (plain.argv.length > 0) steps.push(plain.argv);
  }
  return steps.length > 0 ? steps : [[manager, 'run', name]];
}

function runsPrePostScripts(project: ProjectFacts, manager: 'npm' | 'yarn' | 'pnpm' | null): boolean {
  if (manager === 'npm') return true;
  const declared = packageManagerField(project.read('package.json'));
  const pnpm = manager === 'pnpm' || (manager === null && (declared === 'pnpm' || project.exists('pnpm-lock.yaml')));
  if (pnpm) return /^\s*enable-pre-post-scripts\s*=\s*true\s*$/m.test(project.read('.npmrc'));
  return !(declared === 'yarn-berry' || project.exists('.yarnrc.yml'));
}

/** `packageManager` in package.json (`pnpm@9.1.0`, `yarn@4.0.2`), as the family that decides pre/post scripts. */
function packageManagerField(text: string): 'pnpm' | 'yarn-berry' | 'other' | null {
  const value = /"packageManager"\s*:\s*"([^"]+)"/.exec(text)?.[1];
  if (!value) return null;
  if (value.startsWith('pnpm@')) return 'pnpm';
  const yarn = /^yarn@(\d+)/.exec(value);
  return yarn && Number(yarn[1]) >= 2 ? 'yarn-berry' : 'other';
}
