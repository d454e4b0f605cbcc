import type { RunnerName } from './names.js';
import type { ProjectFacts } from './project.js';
import { delegatorOf, type Delegator } from './wrapped/delegators.js';
import { inProcessWrapperOf } from './wrapped/in-process.js';
import { importsNodeTest } from './node-test-script.js';

/** A command that calls a package.json script. */
export interface ScriptCall {
  script: string;
  extraArgs: string[];
  env: Record<string, string>;
  /** The package manager that runs the script: it decides whether `pre<name>` and `post<name>` run too. */
  manager: 'npm' | 'yarn' | 'pnpm';
}

/** A command that starts a task or monorepo runner, which starts the test runner itself. */
export interface DelegatedCall {
  delegator: Delegator;
  /** The command as it runs (`lerna run test`, `hereby test`), after env assignments and npx. */
  argv: string[];
  env: Record<string, string>;
  wrappers: string[][];
}

/** A command that starts a runner, with what was peeled off around it. */
export interface DirectCall {
  runner: Exclude<RunnerName, 'command'>;
  launcher: string[];
  args: string[];
  env: Record<string, string>;
  wrappers: string[][];
  /** How a wrapper script starts the runner in its own process (`kcd-scripts test -> jest in ...`), for doctor. */
  wrapper?: string;
}

const ENV_ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** Runners started by their own binary name. */
const RUNNER_BINS: Record<string, DirectCall['runner']> = {
  vitest: 'vitest',
  jest: 'jest',
  mocha: 'mocha',
  _mocha: 'mocha',
  tape: 'tape',
  tap: 'tap',
  uvu: 'uvu',
  ava: 'ava',
  pytest: 'pytest',
  'py.test': 'pytest',
};

/** A JS file that is a runner's CLI, started with `node [options] <file>` (ESM jest, for one). */
const RUNNER_SCRIPT =
  /(?:^|\/)(?:node_modules\/\.bin\/(vitest|jest|mocha|_mocha|tape|tap|ava|uvu)|node_modules\/(vitest|jest|mocha|tape|tap|ava|uvu)\/[\w./-]*\.m?js)$/;

/** Options of coverage wrappers that take a separate value (`nyc --reporter lcov tape ...`). */
const WRAPPER_VALUE_OPTIONS: Record<string, Set<string>> = {
  nyc: new Set([
    '--reporter',
    '-r',
    '--report-dir',
    '--temp-dir',
    '-t',
    '--include',
    '-n',
    '--exclude',
    '-x',
    '--extension',
    '-e',
    '--require',
    '-i',
    '--cwd',
    '--nycrc-path',
    '--lines',
    '--branches',
    '--functions',
    '--statements',
  ]),
  c8: new Set([
    '--reporter',
    '-r',
    '--reports-dir',
    '--report-dir',
    '-o',
    '--exclude',
    '-x',
    '--include',
    '-n',
    '--extension',
    '-e',
    '--lines',
    '--branches',
    '--functions',
    '--statements',
    '--temp-directory',
    '--src',
    '--config',
    '-c',
  ]),
};

/** Node options that take a separate value (`node --import tsx --test`). */
export const NODE_VALUE_OPTIONS = new Set([
  '--import',
  '--require',
  '-r',
  '--loader',
  '--experimental-loader',
  '--test-name-pattern',
  '--test-skip-pattern',
  '--test-concurrency',
  '--test-timeout',
  '--test-reporter',
  '--test-reporter-destination',
  '--conditions',
  '-C',
  '--env-file',
  '--input-type',
  '--title',
]);

/**
 * Sees through one command of a script: env assignments, cross-env, npx, package-manager script calls,
 * coverage wrappers and `node`, to the runner it starts, the script it calls, or why it is neither.
 */
export function peelCommand(
  argv: string[],
  project: ProjectFacts,
): ScriptCall | DirectCall | DelegatedCall | { unknown: string } {
  const env: Record<string, string> = {};
  const wrappers: string[][] = [];
  let rest = [...argv];
  for (;;) {
    while (rest[0] !== undefined && ENV_ASSIGNMENT.test(rest[0])) {
      const [key, ...value] = rest.shift()!.split('=');
      env[key!] = value.join('=');
    }
    const [head, ...tail] = rest;
    if (head === undefined) return { unknown: 'the command only sets variables' };
    if (head === 'cross-env' || head === 'cross-env-shell' || head === 'env') {
      rest = tail;
      continue;
    }
    if (head === 'npx' || head === 'pnpx' || head === 'bunx') {
      rest = dropLeadingOptions(tail);
      continue;
    }
    const inProcess = inProcessWrapperOf(rest, project);
    if (inProcess) {
      const { step, ...call } = inProcess;
      return { ...call, env, wrappers, wrapper: step };
    }
    const delegator = delegatorOf(rest);
    if (delegator) return { delegator, argv: rest, env, wrappers };
    if (head === 'npm' || head === 'yarn' || head === 'pnpm') {
      const call = packageManagerCall(head, tail, project);
      if ('script' in call) return { ...call, env };
      if ('unknown' in call) return call;
      rest = call.bin;
      continue;
    }
    if (head === 'nyc' || head === 'c8') {
      const { options, remainder } = splitWrapper(tail, WRAPPER_VALUE_OPTIONS[head]!);
      wrappers.push([head, ...options]);
      rest = remainder;
      continue;
    }
    // `./node_modules/.bin/mocha` (a Makefile's recipe) is the project's own `mocha`, which fixcycle runs from there.
    const bin = /^(?:\.\/)?node_modules\/\.bin\/([\w.-]+)$/.exec(head)?.[1] ?? head;
    const runner = RUNNER_BINS[bin];
    if (runner) return { runner, launcher: [bin], args: tail, env, wrappers };
    if (head === 'node' || head === 'tsx') return nodeCall(head, tail, env, wrappers, project);
    // `/usr/bin/python3 -m pytest`, `python3.12 -m pytest`: any Python, named by path or version.
    if (/^python(3(\.\d+)?)?$/.test(head.split('/').at(-1)!) && tail[0] === '-m' && tail[1] === 'pytest') {
      return { runner: 'pytest', launcher: [head, '-m', 'pytest'], args: tail.slice(2), env, wrappers };
    }
    if (head === 'go' && tail[0] === 'test')
      return { runner: 'go', launcher: ['go', 'test'], args: tail.slice(1), env, wrappers };
    if (head === 'cargo' && tail[0] === 'test')
      return { runner: 'cargo', launcher: ['cargo', 'test'], args: tail.slice(1), env, wrappers };
    return { unknown: `"${head}" is not a test runner fixcycle knows` };
  }
}

function packageManagerCall(
  pm: 'npm' | 'yarn' | 'pnpm',
  args: string[],
  project: ProjectFacts,
): Omit<ScriptCall, 'env'> | { bin: string[] } | { unknown: string } {
  const words = dropLeadingOptions(args);
  const [verb, ...rest] = words;
  const script = (name: string | undefined, extra: string[]): Omit<ScriptCall, 'env'> | { unknown: string } =>
    name === undefined
      ? { unknown: `"${pm} ${verb}" names no script` }
      : { script: name, extraArgs: extra, manager: pm };
  if (verb === undefined) return { unknown: `"${pm}" alone runs no tests` };
  if (['test', 't', 'tst'].includes(verb)) return script('test', pm === 'npm' ? afterDoubleDash(rest) : rest);
  if (['run', 'run-script', 'rum', 'urn'].includes(verb)) {
    const [name, ...extra] = dropLeadingOptions(rest);
    return script(name, pm === 'npm' ? afterDoubleDash(extra) : extra);
  }
  if (verb === 'exec' || verb === 'x') return { bin: rest[0] === '--' ? rest.slice(1) : rest };
  if (pm !== 'npm') return project.scripts[verb] !== undefined ? script(verb, rest) : { bin: words };
  return { unknown: `"npm ${verb}" does not run a test script` };
}

function nodeCall(
  head: 'node' | 'tsx',
  args: string[],
  env: Record<string, string>,
  wrappers: string[][],
  project: ProjectFacts,
): DirectCall | { unknown: string } {
  const options: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (word.startsWith('-')) {
      options.push(word);
      if (NODE_VALUE_OPTIONS.has(word) && i + 1 < args.length) options.push(args[++i]!);
      continue;
    }
    if (options.includes('--test')) break;
    const match = RUNNER_SCRIPT.exec(word);
    // `node test.js` where test.js imports node:test (unified, remark): node's runner, in the script's process.
    if (!match && importsNodeTest(project, word))
      return { runner: 'node-test', launcher: [head, ...options, word], args: args.slice(i + 1), env, wrappers };
    if (!match) return { unknown: `"${head} ${word}" runs a script, not a test runner fixcycle knows` };
    const name = (match[1] ?? match[2])!;
    return { runner: RUNNER_BINS[name]!, launcher: [head, ...options, word], args: args.slice(i + 1), env, wrappers };
  }
  if (!args.includes('--test')) return { unknown: `"${head}" without --test runs no tests` };
  return { runner: 'node-test', launcher: [head], args, env, wrappers };
}

/** A wrapper's own options, and the command it wraps. */
function splitWrapper(args: string[], valueOptions: Set<string>): { options: string[]; remainder: string[] } {
  let i = 0;
  while (i < args.length && args[i]!.startsWith('-')) {
    const word = args[i++]!;
    if (word === '--') break;
    if (valueOptions.has(word) && !word.includes('=')) i++;
  }
  return { options: args.slice(0, i).filter((word) => word !== '--'), remainder: args.slice(i) };
}

function dropLeadingOptions(args: string[]): string[] {
  let i = 0;
  while (i < args.length && args[i]!.startsWith('-') && args[i] !== '--') i++;
  return args.slice(i);
}

/** npm passes its own options before `--` to itself and only what follows to the script. */
function afterDoubleDash(args: string[]): string[] {
  const index = args.indexOf('--');
  return index === -1 ? [] : args.slice(index + 1);
}
