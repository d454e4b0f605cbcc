// One corpus project end to end: the bare test command, fixcycle on the unbroken project, then on the project
// with its injected bug and the scripted agent. Returns one row of the table.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { agentSpec, applyBug, bugFiles, bugLocations } from './bug.mjs';
import { parseEvents, summariseRun } from './events.mjs';
import { cacheRoot, commit, prepare } from './prepare.mjs';
import { run, runOrThrow } from './process.mjs';
import { readSummary, summaryCommand } from './summary.mjs';

const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const AGENT = fileURLToPath(new URL('./agent.mjs', import.meta.url));

export const RUN_TIMEOUT_MS = Number(process.env.FIXCYCLE_CORPUS_TIMEOUT_SEC || 480) * 1000;

export function envFor(entry) {
  return { ...process.env, ...(entry.env ?? {}) };
}

/** Back to the commit `ref` with nothing of an earlier run left (fixcycle's session folder included). */
export async function resetTo(dir, ref) {
  await runOrThrow(['git', 'checkout', '-q', '-f', 'main'], { cwd: dir });
  await runOrThrow(['git', 'reset', '-q', '--hard', ref], { cwd: dir });
  await runOrThrow(['git', 'clean', '-q', '-fd'], { cwd: dir });
  rmSync(join(dir, '.workflow'), { recursive: true, force: true });
  // `.workflow` is a link to the sessions in the git folder: a session left there under the same name would be
  // taken up by the next run. The record of green commits beside them is kept, as a user's repository keeps it.
  rmSync(sessionStore(dir), { recursive: true, force: true });
  // The session worktrees and branches an earlier run left (one that ended unconverged keeps them for a resume).
  const worktrees = (await runOrThrow(['git', 'worktree', 'list', '--porcelain'], { cwd: dir })).stdout;
  // The first is the project's own tree.
  for (const [, path] of [...worktrees.matchAll(/^worktree (.+)$/gm)].slice(1))
    await run(['git', 'worktree', 'remove', '-f', '-f', path], { cwd: dir });
  await runOrThrow(['git', 'worktree', 'prune'], { cwd: dir });
  const branches = (
    await runOrThrow(['git', 'branch', '--list', 'fixcycle/*', '--format=%(refname:short)'], { cwd: dir })
  ).stdout
    .split('\n')
    .filter(Boolean);
  if (branches.length) await runOrThrow(['git', 'branch', '-q', '-D', ...branches], { cwd: dir });
}

/** Where fixcycle keeps its sessions: in the git folder, `.workflow` links there. */
export function sessionStore(dir) {
  return join(dir, '.git', 'fixcycle', '.workflow');
}

export async function baseCommit(dir) {
  return (await runOrThrow(['git', 'rev-list', '--max-parents=0', 'HEAD'], { cwd: dir })).stdout.trim();
}

/** The runner fixcycle finds, as `fixcycle doctor` prints it. */
async function detectedRunner(dir, entry) {
  const doctor = await run([process.execPath, CLI, 'doctor'], { cwd: dir, env: envFor(entry), timeoutMs: 60_000 });
  const runner = /^test runner: (\S+)/m.exec(doctor.stdout)?.[1] ?? null;
  const from = /detected from: (.*)$/m.exec(doctor.stdout)?.[1] ?? null;
  return { runner, from, error: runner ? null : (doctor.stderr.trim().split('\n')[0] ?? '').slice(0, 160) };
}

/** One headless fixcycle run with the scripted agent; `localize: false` adds --no-localize. */
export async function fixcycle(dir, entry, specPath, name, { localize = true } = {}) {
  const args = [
    CLI,
    'run',
    '--headless',
    '--json',
    '--max-iterations',
    '5',
    '--session-name',
    name,
    '--test-timeout',
    '5m',
    '--agent-timeout',
    '1m',
  ];
  if (!localize) args.push('--no-localize');
  args.push('--agent-cmd', `${process.execPath} ${AGENT} ${specPath}`);
  const result = await run([process.execPath, ...args], { cwd: dir, env: envFor(entry), timeoutMs: RUN_TIMEOUT_MS });
  const summary = summariseRun(parseEvents(result.stdout));
  return {
    ...summary,
    processExit: result.code,
    timedOut: result.timedOut,
    seconds: result.seconds,
    stderr: result.stderr.trim().split('\n').slice(-3).join(' | ').slice(0, 300),
  };
}

export function agentSpecDir() {
  const dir = join(cacheRoot(), 'agent-specs');
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * Commits the entry's bug on the published state (`dir` reset to `base`) and writes the scripted agent's spec
 * that restores it. Returns the broken commit, the file's unbroken text and the spec's path.
 */
export async function commitBug(dir, entry) {
  const originals = applyBug(dir, entry.bug);
  await runOrThrow(['git', 'add', '-A'], { cwd: dir });
  await commit(dir, `corpus: inject a bug into ${bugFiles(entry.bug).join(', ')}`);
  const brokenSha = (await runOrThrow(['git', 'rev-parse', 'HEAD'], { cwd: dir })).stdout.trim();
  const spec = join(agentSpecDir(), `${entry.name}.broken.json`);
  writeFileSync(spec, JSON.stringify(agentSpec(entry.bug, originals)));
  return { brokenSha, originals, spec };
}

/** The agent spec for the unbroken project: nothing to restore. */
export function cleanSpec(entry) {
  const spec = join(agentSpecDir(), `${entry.name}.clean.json`);
  writeFileSync(spec, JSON.stringify(agentSpec(entry.bug, null)));
  return spec;
}

/** Runs one project and returns its row; `localize: false` runs fixcycle with --no-localize. */
export async function runProject(entry, { log = () => {}, localize = true } = {}) {
  const row = {
    name: entry.name,
    family: entry.family,
    expectedRunner: entry.runner,
    expected: entry.expected ?? null,
    localize,
  };
  const dir = await prepare(entry, log);
  const base = await baseCommit(dir);
  await resetTo(dir, base);
  row.found = await detectedRunner(dir, entry);

  log('bare test command (unbroken)');
  const bare = await run(summaryCommand(entry), { cwd: dir, env: envFor(entry), timeoutMs: RUN_TIMEOUT_MS });
  row.bare = {
    command: summaryCommand(entry),
    exit: bare.code,
    seconds: bare.seconds,
    timedOut: bare.timedOut,
    summary: readSummary(entry.runner, bare.stdout + bare.stderr),
  };
  // The bare run's leftovers (coverage, caches) are not the user's changes.
  await resetTo(dir, base);

  log('fixcycle on the unbroken project');
  row.clean = await fixcycle(dir, entry, cleanSpec(entry), 'corpus-clean', { localize });

  await resetTo(dir, base);
  const { brokenSha, originals, spec } = await commitBug(dir, entry);

  log('bare test command (broken)');
  const bareBroken = await run(summaryCommand(entry), { cwd: dir, env: envFor(entry), timeoutMs: RUN_TIMEOUT_MS });
  row.bareBroken = {
    exit: bareBroken.code,
    seconds: bareBroken.seconds,
    timedOut: bareBroken.timedOut,
    summary: readSummary(entry.runner, bareBroken.stdout + bareBroken.stderr),
  };
  await resetTo(dir, brokenSha);

  log('fixcycle on the broken project');
  row.broken = await fixcycle(dir, entry, spec, 'corpus-broken', { localize });
  const locations = bugLocations(originals, entry.bug);
  row.bugLine = locations[0].line;
  row.bugLocations = locations;
  row.suspectRank = suspectRank(row.broken.suspects, locations);
  await resetTo(dir, base);
  return row;
}

/**
 * 1-based rank of the first suspect holding a line the bug changed (`locations`: `[{ file, line, endLine }]`,
 * one per edit), or null (none holds one, or no suspects).
 */
export function suspectRank(suspects, locations) {
  const i = (suspects ?? []).findIndex((s) =>
    locations.some(({ file, line, endLine }) => s.file === file && s.startLine <= endLine && line <= s.endLine),
  );
  return i < 0 ? null : i + 1;
}

// The runner layer may name a runner either way; both mean the same runner.
const ALIASES = {
  tap: ['tap', 'node-tap'],
  'node-test': ['node-test', 'node:test', 'node'],
  go: ['go', 'go-test'],
  cargo: ['cargo', 'cargo-test'],
};

export function sameRunner(found, expected) {
  return found !== null && found !== undefined && (ALIASES[expected] ?? [expected]).includes(found);
}

const CANNOT_RUN = /cannot run on this machine/;
// Tests (not a part of the command) that cannot run here: the agent fixes the rest first, then the session stops naming them.
const TESTS_CANNOT_RUN = /^(the test(?: file)? `|\d+ test(?: file)?s )[^]*?cannot run on this machine/;

/** A run that stopped before any agent call, naming what cannot run on this machine: what the issue asks of it. */
export function namedStop(run) {
  return (
    run !== undefined &&
    run !== null &&
    run.agentCalls?.length === 0 &&
    CANNOT_RUN.test(run.fullReason ?? run.reason ?? '')
  );
}

// A part of the command that cannot run here, left out: the agent fixed what runs, and the end says both.
const CONVERGED_HERE = /^converged on what runs here[^]*not run: (?:the test command's part|a step inside)/;

/** A run that ended naming tests (or a part of the command) that cannot run here, after the agent fixed everything else. */
function stoppedAfterFixing(run, fixed) {
  const last = run?.last;
  const reason = run?.fullReason ?? run?.reason ?? '';
  return Boolean(
    last &&
    fixed &&
    (TESTS_CANNOT_RUN.test(reason) || CONVERGED_HERE.test(reason)) &&
    last.passed === fixed.passed &&
    last.failed === fixed.failed,
  );
}

/** The verdicts the issue asks for, from one row. */
export function verdicts(row) {
  const exp = row.expected;
  const same = (got, want) =>
    got !== null && want !== undefined && got.passed === want.passed && got.failed === want.failed;
  const stopped = namedStop(row.broken);
  return {
    runnerFound: sameRunner(row.found?.runner, row.expectedRunner),
    cleanAtOnce:
      (row.clean?.exitCode === 0 && row.clean?.processExit === 0 && row.clean?.agentCalls.length === 0) ||
      namedStop(row.clean),
    converged:
      (row.broken?.outcome === 'success' && row.broken?.processExit === 0) ||
      stopped ||
      stoppedAfterFixing(row.broken, exp?.fixed),
    brokenCounts: exp ? same(row.broken?.first, exp.broken) : null,
    // A run stopped before the agent fixed nothing: there are no fixed counts to compare.
    fixedCounts: exp && !stopped ? same(row.broken?.last, exp.fixed) : null,
  };
}
