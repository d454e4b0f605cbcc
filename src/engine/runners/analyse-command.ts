import { plainArgv, quoteWords, splitCommands, tokenize, type Token } from './command-line.js';
import type { RunnerName } from './names.js';
import type { ProjectFacts } from './project.js';
import { lifecycleParts } from './lifecycle-scripts.js';
import { peelCommand } from './peel-command.js';
import { delegation } from './wrapped/inner.js';
import { makeParts } from './wrapped/make-parts.js';

/** What a test command turns out to run, once scripts, env assignments and wrappers are seen through. */
export interface RunnerCall {
  runner: Exclude<RunnerName, 'command'>;
  /** How the runner is started: `['vitest']`, `['node']`, `['node', '--import', 'tsx', 'node_modules/jest/bin/jest.js']`, `['python3', '-m', 'pytest']`, `['go', 'test']`. */
  launcher: string[];
  /** The runner's own arguments as the script wrote them. */
  args: string[];
  /** Variables the script set (`X=1 jest`, `cross-env X=1 jest`). */
  env: Record<string, string>;
  /** Coverage wrappers (`['c8', '--reporter=lcov']`), kept for full runs only. */
  wrappers: string[][];
  /** Commands the script ran before the runner (`npm run build`), run first in the same order. */
  setup: string[][];
  /**
   * Commands the script runs after the runner (`jest && tsc`, `tape ... && npm run test:corejs`), each with the
   * operator that leads to it: `&&` runs only when everything before passed, `;` always. A failing one is a failure.
   */
  after?: { argv: string[]; when: '&&' | ';' }[];
  /** How the command led to the runner, for `doctor` (`npm test` -> `scripts.test: "c8 node --test"`). */
  trail: string[];
  /** The installed runner's major version, where its flags differ between versions (node-tap 18 renamed --no-coverage). */
  runnerMajor?: number;
  /**
   * Words the command line left as unquoted globs (`dist-node/test/*.js`), in any part. The shell expands them
   * as each part starts, after the parts before it ran (a `pretest` build making the files): so does fixcycle.
   */
  globs?: string[];
  /**
   * Set when a task or monorepo runner starts the runner (`hereby test`, `lerna run test`): then `launcher` is
   * that command, run as it is, and the runner gets fixcycle's reporter from inside (runners/wrapped).
   */
  delegate?: DelegateInfo;
  /**
   * Set when a wrapper script runs the runner in its own process and forwards the arguments to it
   * (`kcd-scripts test`): how it does, for doctor. `launcher` is the wrapper, run as written.
   */
  wrapper?: string;
}

/** A task or monorepo runner between the test command and the test runner. */
export interface DelegateInfo {
  tool: string;
  kind: 'task' | 'monorepo';
  /** The project root, where the command runs. */
  root: string;
  /** Each package (relative folder) and how its own script starts its runner, for runs of one package's tests. */
  packages: { dir: string; call: RunnerCall | null }[];
}

/** A command that does not lead to a runner fixcycle knows, and why. */
export interface UnknownCall {
  unknown: string;
  trail: string[];
}

// Scripts calling scripts calling scripts: deeper than this is a loop.
const MAX_SCRIPT_DEPTH = 8;

/**
 * Follows a command line (a --test-cmd or a package.json script) to the test runner it ends up calling.
 * `extraArgs` are arguments appended by the caller (`npm test -- --coverage`).
 */
export function analyseCommandLine(
  line: string,
  project: ProjectFacts,
  extraArgs: string[] = [],
  depth = 0,
): RunnerCall | UnknownCall {
  if (depth > MAX_SCRIPT_DEPTH) return { unknown: 'package.json scripts call each other in a loop', trail: [] };
  const setup: string[][] = [];
  const trail: string[] = [];
  const globs: string[] = [];
  const commands = splitCommands(tokenize(line));
  for (let i = 0; i < commands.length; i++) {
    const { words } = commands[i]!;
    const previous = i > 0 ? commands[i - 1]!.next : null;
    if (previous === '|' || previous === '|&') continue; // a formatter reading the runner's output (tap-spec)
    if (previous === '||') break; // what runs only when the tests fail
    const plain = plainArgv(words);
    if ('error' in plain) return { unknown: `the command uses a ${plain.error}, which needs a shell`, trail };
    const argv = plain.argv;
    globs.push(...globWords(plain));
    if (argv.length === 0) continue;
    const peeled = peelCommand(argv, project);
    if ('script' in peeled) {
      const script = project.scripts[peeled.script];
      if (script === undefined)
        return {
          unknown: `"${argv.join(' ')}" runs the script "${peeled.script}", which package.json does not have`,
          trail,
        };
      const found = analyseCommandLine(script, project, [...peeled.extraArgs, ...extraArgs], depth + 1);
      const step = `${argv.join(' ')} -> scripts.${peeled.script}: "${script}"`;
      const last = i === commands.length - 1 || commands[i]!.next === '|';
      if ('unknown' in found && !last && commands[i]!.next !== '&') {
        setup.push(argv); // a script run before the tests (`npm run build && mocha`)
        continue;
      }
      if ('unknown' in found) return { unknown: found.unknown, trail: [...trail, step, ...found.trail] };
      // npm runs `pre<script>` first and `post<script>` after it when it passed, as parts of the same command.
      const around = lifecycleParts(project, peeled.script, peeled.manager);
      const rest = laterParts(commands, i);
      return {
        ...found,
        ...withGlobs([...globs, ...(found.globs ?? []), ...rest.globs]),
        env: { ...peeled.env, ...found.env },
        setup: [...setup, ...around.setup, ...found.setup],
        after: [...(found.after ?? []), ...around.after, ...rest.parts],
        trail: [...trail, step, ...found.trail],
      };
    }
    if ('delegator' in peeled) {
      // `make build && mocha`: a task run before the runner is a step like any build.
      if (laterLeadsToRunner(commands, i, project, depth)) {
        setup.push(argv);
        continue;
      }
      // `make test` whose target only runs others (`test: test-node test-chrome`): each is a part of its own.
      const parts = isMake(peeled.delegator.tool)
        ? makeParts(peeled, project.cwd, (recipe) => analyseCommandLine(recipe, project, [], depth + 1))
        : null;
      const task = parts
        ? { ...peeled, argv: parts.runnerPart, delegator: { ...peeled.delegator, runner: parts.runner } }
        : peeled;
      const found = delegation<RunnerCall>(task, project, (script, facts) =>
        analyseCommandLine(script, facts, [], depth + 1),
      );
      if ('unknown' in found) return { unknown: found.unknown, trail };
      const rest = laterParts(commands, i);
      return {
        ...withGlobs([...globs, ...rest.globs]),
        runner: found.runner,
        launcher: task.argv,
        args: extraArgs,
        env: peeled.env,
        wrappers: peeled.wrappers,
        setup: [...setup, ...(parts?.before ?? [])],
        after: [...(parts?.after.map((part) => ({ argv: part, when: '&&' as const })) ?? []), ...rest.parts],
        trail: [
          ...trail,
          ...(parts ? [parts.shown] : []),
          `${task.argv.join(' ')} -> ${found.runner} under ${peeled.delegator.tool}${found.script ? ` (each package's "${found.script}" script)` : ''}`,
        ],
        delegate: {
          tool: peeled.delegator.tool,
          kind: peeled.delegator.kind,
          root: project.cwd,
          packages: found.packages,
        },
      };
    }
    if ('runner' in peeled) {
      const rest = laterParts(commands, i);
      return {
        ...withGlobs([...globs, ...rest.globs]),
        runner: peeled.runner,
        launcher: peeled.launcher,
        args: [...peeled.args, ...extraArgs],
        env: peeled.env,
        wrappers: peeled.wrappers,
        setup,
        after: rest.parts,
        trail: [...trail, peeled.wrapper ?? `${argv.join(' ')} -> ${peeled.runner}`],
        ...(peeled.wrapper ? { wrapper: peeled.wrapper } : {}),
      };
    }
    // Not a runner: a step before it (a build), unless nothing follows.
    if (i === commands.length - 1 || commands[i]!.next === '|') return { unknown: peeled.unknown, trail };
    if (commands[i]!.next === '&') return { unknown: 'the command starts something in the background (&)', trail };
    setup.push(argv);
  }
  return { unknown: 'the command runs nothing', trail };
}

/** True when a command after the i-th (joined by `&&` or `;`) starts a test runner or a script that leads to one. */
function laterLeadsToRunner(
  commands: { words: Token[]; next: string | null }[],
  i: number,
  project: ProjectFacts,
  depth: number,
): boolean {
  for (let j = i + 1; j < commands.length; j++) {
    const op = commands[j - 1]!.next;
    if (op !== '&&' && op !== ';') return false;
    const plain = plainArgv(commands[j]!.words);
    if ('error' in plain || plain.argv.length === 0) continue;
    const peeled = peelCommand(plain.argv, project);
    if ('runner' in peeled || 'delegator' in peeled) return true;
    if ('script' in peeled) {
      const script = project.scripts[peeled.script];
      if (script !== undefined && !('unknown' in analyseCommandLine(script, project, [], depth + 1))) return true;
    }
  }
  return false;
}

/**
 * The commands of the line after the one that started the runner, as the shell would chain them: up to an
 * `||` (what runs only on failure) or an `&` (something in the background); a pipe's reader (a TAP formatter)
 * belongs to the command before it.
 */
function laterParts(
  commands: { words: Token[]; next: string | null }[],
  runnerIndex: number,
): { parts: NonNullable<RunnerCall['after']>; globs: string[] } {
  const parts: NonNullable<RunnerCall['after']> = [];
  const globs: string[] = [];
  for (let j = runnerIndex + 1; j < commands.length; j++) {
    const op = commands[j - 1]!.next;
    if (op === '|' || op === '|&') continue;
    if (op !== '&&' && op !== ';') break;
    const plain = plainArgv(commands[j]!.words);
    // A part that needs a shell runs through one, as the script would have.
    if ('error' in plain)
      return { parts: [...parts, { argv: ['sh', '-c', quoteWords(commands.slice(j))], when: op }], globs };
    if (plain.argv.length === 0) continue;
    globs.push(...globWords(plain));
    parts.push({ argv: plain.argv, when: op });
  }
  return { parts, globs };
}

/** The words of a command that were unquoted globs. */
function globWords(plain: { argv: string[]; globs: Set<number> }): string[] {
  return [...plain.globs].map((index) => plain.argv[index]!);
}

function withGlobs(globs: string[]): Pick<RunnerCall, 'globs'> {
  return globs.length > 0 ? { globs: [...new Set(globs)] } : {};
}

function isMake(tool: string): boolean {
  return tool === 'make' || tool === 'gmake';
}
