import { join, relative } from 'node:path';
import type { RunnerCall } from '../analyse-command.js';
import type { Invocation, RunnerCommands, TestSelection } from '../invocation.js';
import { MOCHA_REPORTER_SOURCE } from '../commands/mocha-reporter.js';
import { INJECT_DIR_VAR, INJECT_FILE, INJECT_SOURCE } from './inject-source.js';
import { packageOf } from './workspaces.js';

/**
 * Monorepo runners that stop at the first failing package unless told otherwise: lerna (--no-bail), pnpm -r
 * (--no-bail), turbo (--continue), nx with --nxBail, and yarn 1's `yarn workspaces run` (it has no flag to go
 * on: `error Command failed`, the packages after it are not run). npm workspaces run every package.
 */
function stopsAtFailure(tool: string, argv: readonly string[]): string | null {
  const bails =
    ((tool === 'lerna' || tool === 'pnpm -r') && !argv.includes('--no-bail')) ||
    (tool === 'turbo' && !argv.some((word) => word.startsWith('--continue'))) ||
    (tool === 'nx' && argv.includes('--nxBail')) ||
    (tool === 'yarn workspaces' && argv.includes('run') && !argv.includes('foreach'));
  return bails ? `${tool} stopped at the first failing package, so the packages after it did not run` : null;
}

/**
 * The user's task or monorepo command, run as written, each runner under it given fixcycle's reporter from
 * inside through NODE_OPTIONS (inject-source.ts); the reports are read per runner process, each test with its
 * package. A run of some tests runs them in their package, through that package's own runner call, when they
 * are all in one package; otherwise the whole command runs.
 */
export function wrappedCommands(call: RunnerCall, inner: (call: RunnerCall) => RunnerCommands): RunnerCommands {
  const delegate = call.delegate!;
  const stops = stopsAtFailure(delegate.tool, call.launcher);
  const full = (reportDir: string): Invocation => {
    const preload = join(reportDir, INJECT_FILE);
    const nodeOptions = [call.env.NODE_OPTIONS ?? process.env.NODE_OPTIONS, `--require ${JSON.stringify(preload)}`]
      .filter(Boolean)
      .join(' ');
    return {
      argv: [...call.wrappers.flat(), ...call.launcher, ...call.args],
      env: call.env,
      // Only the command itself: a build or linter before it never loads the preload.
      commandEnv: { NODE_OPTIONS: nodeOptions, [INJECT_DIR_VAR]: reportDir },
      setup: call.setup,
      report: { file: reportDir, format: 'injected', fromStdout: false, ...(stops ? { stopsAtFailure: stops } : {}) },
      prepare: [
        { path: preload, content: INJECT_SOURCE },
        { path: join(reportDir, 'fixcycle-mocha-reporter.cjs'), content: MOCHA_REPORTER_SOURCE },
      ],
    };
  };
  /** One package's own runner, for changed or selected files that all lie in it; null otherwise. */
  const inPackage = (files: readonly string[]): { dir: string; commands: RunnerCommands } | null => {
    const dirs = delegate.packages.map((p) => p.dir);
    const owners = new Set(files.map((file) => packageOf(file, dirs)));
    if (owners.size !== 1) return null;
    const dir = [...owners][0];
    const own = delegate.packages.find((p) => p.dir === dir)?.call;
    return dir && own && !own.delegate ? { dir, commands: inner(own) } : null;
  };
  const place = (dir: string, invocation: Invocation | null): Invocation | null =>
    invocation && { ...invocation, cwd: join(delegate.root, dir), package: dir };
  const local = (dir: string, files: readonly string[]): string[] => files.map((file) => relative(dir, file));
  const own = delegate.packages.filter((p) => p.call && !p.call.delegate).map((p) => p.dir);
  return {
    runner: call.runner,
    subsetNote:
      delegate.kind === 'monorepo' && own.length > 0
        ? `per package: tests all in one package run there, with that package's own script's runner (${own.slice(0, 3).join(', ')}${own.length > 3 ? ', ...' : ''}); tests in several packages run the whole command`
        : `none (${call.runner} runs under ${delegate.tool} with the options its task gives: affected runs use the whole command)`,
    reportSource: 'report',
    reportDetail: `each ${call.runner} run under ${delegate.tool} writes its report through fixcycle's preload (NODE_OPTIONS=--require), read per package`,
    full,
    subset: (dir, selection: TestSelection) => {
      const pkg = inPackage(selection.files);
      return (
        pkg &&
        place(pkg.dir, pkg.commands.subset(dir, { files: local(pkg.dir, selection.files), names: selection.names }))
      );
    },
    related: (dir, changed) => {
      const pkg = inPackage(changed);
      return pkg && place(pkg.dir, pkg.commands.related(dir, local(pkg.dir, changed)));
    },
  };
}
