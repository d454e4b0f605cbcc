import { spawnSync } from 'node:child_process';
import type { DelegatedCall } from '../peel-command.js';
import type { InjectableRunner } from './inner.js';
import { readMakeRules } from './make-database.js';

/** A `make <goal>` whose goal only runs other targets (`test: test-node test-chrome`), split into them. */
export interface MakeParts {
  /** The targets before the one that runs the tests, each as a make command (`make build`). */
  before: string[][];
  /** The target that runs the test runner, as a make command (`make test-node`). */
  runnerPart: string[];
  /** The runner its recipe starts, as make's dry run (`make -n test-node`) prints it. */
  runner: InjectableRunner;
  /** The targets after it (`make test-chrome`): make runs each only when the ones before it passed. */
  after: string[][];
  /** How the goal was split, for doctor (`make test -> make test-node && make test-chrome (...)`). */
  shown: string;
}

/** What a recipe's command lines lead to, as analysed like a script: a runner, or not one fixcycle knows. */
export type AnalyseRecipe = (line: string) => { runner: string } | { unknown: string };

const INJECTABLE = new Set<string>(['mocha', 'jest', 'vitest']);
// make's own options fixcycle passes on to each part; any other option (-k, -i, -B...) changes what make runs.
const FLAGS = new Set(['-s', '--silent', '--quiet', '--no-print-directory', '-w', '--print-directory']);
const VALUE_OPTIONS = new Set(['-C', '--directory', '-f', '--file', '--makefile', '-I', '--include-dir']);
const ATTACHED = /^(?:-[CfIj].+|--(?:directory|file|makefile|include-dir|jobs)=.+)$/;
// make's dry runs and database read: a few Makefile `$(shell ...)` calls at most.
const MAKE_TIMEOUT_MS = 20_000;

const cache = new Map<string, MakeParts | null>();

/**
 * Asks make what `make <goal>` runs: when the goal has no recipe of its own and two or more prerequisites that
 * are targets (chai's `test: test-node test-chrome`), each is a part of the test command, as `npm run a && npm
 * run b` parts are, so one that cannot run here (a browser) is found, reported and left out on its own. The
 * prerequisites come from make's database (`make -npq .DEFAULT`: it builds nothing), what each runs from its
 * dry run (`make -n <target>`); the part that starts a runner fixcycle reads from inside is the tests' part.
 * Null when make does not say so: another shape of goal, options that change what make runs, no make here.
 */
export function makeParts(peeled: DelegatedCall, cwd: string, analyse: AnalyseRecipe): MakeParts | null {
  const key = `${cwd}\0${JSON.stringify(peeled.env)}\0${peeled.argv.join('\0')}`;
  if (!cache.has(key)) cache.set(key, split(peeled, cwd, analyse));
  return cache.get(key)!;
}

function split(peeled: DelegatedCall, cwd: string, analyse: AnalyseRecipe): MakeParts | null {
  const command = goalOf(peeled.argv);
  if (!command) return null;
  const { base, goal } = command;
  const ask = (args: string[]): string | null => {
    const result = spawnSync(base[0]!, [...base.slice(1), ...args], {
      cwd,
      env: { ...process.env, ...peeled.env },
      encoding: 'utf8',
      timeout: MAKE_TIMEOUT_MS,
      maxBuffer: 64 * 1024 * 1024,
    });
    return result.error || result.signal ? null : result.stdout;
  };
  const database = ask(['-npq', '.DEFAULT']);
  if (database === null) return null;
  const rules = readMakeRules(database);
  const rule = rules.get(goal);
  if (!rule || rule.recipe || rule.doubleColon || rule.orderOnly.length > 0) return null;
  // A prerequisite that is only a file (no rule) is not a step; a target with neither recipe nor prerequisites does nothing.
  const targets = rule.prerequisites.filter((name) => {
    const own = rules.get(name);
    return own !== undefined && (own.recipe || own.prerequisites.length > 0);
  });
  if (targets.length < 2) return null;
  const leads = targets.map((target) => {
    const dry = ask(['-n', '--no-print-directory', target]);
    const found = dry === null ? null : analyse(recipeLine(dry));
    return found && 'runner' in found ? found.runner : null;
  });
  const runners = leads.filter((runner) => runner !== null);
  // One part runs the tests: with two, the second's tests would run outside the reporter make gives them.
  if (runners.length !== 1 || !INJECTABLE.has(runners[0]!)) return null;
  const at = leads.findIndex((runner) => runner !== null);
  const part = (target: string): string[] => [...base, target];
  return {
    before: targets.slice(0, at).map(part),
    runnerPart: part(targets[at]!),
    runner: runners[0] as InjectableRunner,
    after: targets.slice(at + 1).map(part),
    shown: `${peeled.argv.join(' ')} -> ${targets.map((target) => part(target).join(' ')).join(' && ')} (the prerequisites of make's target ${goal})`,
  };
}

/** The goal of a make command and the command without it, when it has one goal and only options kept per part. */
function goalOf(argv: readonly string[]): { base: string[]; goal: string } | null {
  const base: string[] = [argv[0]!];
  const goals: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const word = argv[i]!;
    if (FLAGS.has(word) || ATTACHED.test(word) || /^[A-Za-z_][A-Za-z0-9_.]*=/.test(word)) base.push(word);
    else if (VALUE_OPTIONS.has(word) && argv[i + 1] !== undefined) base.push(word, argv[++i]!);
    else if (word === '-j') base.push(word, ...(/^\d+$/.test(argv[i + 1] ?? '') ? [argv[++i]!] : []));
    else if (word.startsWith('-')) return null;
    else goals.push(word);
  }
  return goals.length === 1 ? { base, goal: goals[0]! } : null;
}

/** A dry run's recipe lines as one command line, each line run only when the one before passed (as make does). */
function recipeLine(dry: string): string {
  return dry
    .replace(/\\\n[ \t]*/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !/^g?make(\[\d+\])?: /.test(line))
    .join(' && ');
}
