import { readFileSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Invocation } from './invocation.js';
import { findLocalBin } from './project.js';
import { hideFromPytest } from './pytest-launcher.js';

/** How the user's own command starts the runner, as the test script wrote it. */
export interface UserCall {
  runner: string;
  launcher: string[];
  args: string[];
  /** Set for a wrapper script (`kcd-scripts test`), which starts the runner itself. */
  wrapper?: string;
}

/**
 * Runners that run test code in their own process (or hand it their argv), where a test that parses
 * `process.argv` (a commander CLI's test calling `program.parse()`) would see fixcycle's reporter flags.
 */
const IN_PROCESS_RUNNERS = new Set(['jest', 'mocha', 'tape']);

/**
 * Rewrites an invocation so the runner still gets fixcycle's reporter flags while the tests see the user's
 * own command line in `process.argv`: a small CommonJS launcher sets the full argv, loads the runner's CLI
 * (which reads its arguments as it loads), then puts back the argv the user's command would have had.
 * Unchanged when fixcycle adds nothing, the runner runs tests elsewhere, or its CLI is not a local JS file, or a
 * wrapper script starts it (kcd-scripts and react-scripts spawn their own script, whose argv the shim cannot set).
 */
export function hideOwnArgs(
  invocation: Invocation,
  call: UserCall | undefined,
  cwd: string,
  reportDir: string,
): Invocation {
  if (!call || call.wrapper || (!IN_PROCESS_RUNNERS.has(call.runner) && call.runner !== 'pytest')) return invocation;
  const at = indexOfRun(invocation.argv, call.launcher);
  if (at === -1) return invocation;
  const full = invocation.argv.slice(at + call.launcher.length);
  if (full.join('\0') === call.args.join('\0')) return invocation;
  if (call.runner === 'pytest') return hideFromPytest(invocation, call, at, full, reportDir);
  const start = cliFile(call.launcher, cwd);
  if (!start) return invocation;
  const shim = join(reportDir, 'fixcycle-launch.cjs');
  const nodeOptions = call.launcher[0] === 'node' ? call.launcher.slice(1, -1) : [];
  return {
    ...invocation,
    argv: [...invocation.argv.slice(0, at), 'node', ...nodeOptions, shim],
    prepare: [...(invocation.prepare ?? []), { path: shim, content: launcherSource(start, full, call.args) }],
  };
}

function indexOfRun(argv: string[], run: string[]): number {
  for (let i = 0; i + run.length <= argv.length; i++) {
    if (run.every((word, j) => argv[i + j] === word)) return i;
  }
  return -1;
}

/** The runner CLI's JS file, when it is a local CommonJS script fixcycle can load in its place. */
function cliFile(launcher: string[], cwd: string): string | null {
  const named = launcher[0] === 'node' ? resolve(cwd, launcher.at(-1)!) : findLocalBin(cwd, launcher[0]!);
  if (!named) return null;
  try {
    const file = realpathSync(named);
    const head = readFileSync(file, 'utf8').slice(0, 2000);
    // An ES module CLI cannot be loaded synchronously, so its argv could not be restored in time.
    if (/^\s*(import|export)\s/m.test(head) || file.endsWith('.mjs')) return null;
    return file;
  } catch {
    return null;
  }
}

function launcherSource(file: string, full: string[], user: string[]): string {
  return [
    `'use strict';`,
    `// Written by fixcycle for one test run: the runner reads its options as it loads, the tests then see the user's own command.`,
    `const file = ${JSON.stringify(file)};`,
    `process.argv = [process.argv[0], file, ...${JSON.stringify(full)}];`,
    `require(file);`,
    `process.argv = [process.argv[0], file, ...${JSON.stringify(user)}];`,
    '',
  ].join('\n');
}
