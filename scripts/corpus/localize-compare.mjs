// `npm run corpus -- --localize-compare`: the fix loop on each broken corpus project twice, localization on
// then off (--no-localize), from the same broken commit, reset between. Issue 17 asks that localization never
// make the loop slower by more than LOOP_RATIO_LIMIT nor change its outcome.
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { cacheRoot, prepare } from './prepare.mjs';
import { runOrThrow } from './process.mjs';
import { baseCommit, cleanSpec, commitBug, fixcycle, resetTo, sessionStore } from './run-project.mjs';

export const LOOP_RATIO_LIMIT = 1.5;

// The tool each runner needs beyond Node: a project whose tool does not run here is left out, saying so.
const PROBES = {
  cargo: ['cargo', ['--version']],
  go: ['go', ['version']],
  pytest: ['python3', ['-m', 'pytest', '--version']],
};

/** Why the entry's runner cannot run on this machine, or null. */
export function notRunnableHere(entry) {
  const probe = PROBES[entry.runner];
  if (!probe || spawnSync(probe[0], probe[1], { stdio: 'ignore' }).status === 0) return null;
  return `${probe[0]} ${probe[1].join(' ')} does not run here`;
}

/**
 * True when fixcycle has recorded the published state as green for some test: the change evidence is
 * measured from there, as after the corpus's unbroken run.
 */
async function baseKnownGreen(dir, base) {
  const path = (
    await runOrThrow(['git', 'rev-parse', '--git-path', 'fixcycle/green-commits.json'], { cwd: dir })
  ).stdout.trim();
  try {
    return Object.values(JSON.parse(readFileSync(resolve(dir, path), 'utf8'))).includes(base);
  } catch {
    return false;
  }
}

/** What the comparison keeps of one run. */
function outcomeOf(run) {
  return {
    exit: run.processExit,
    outcome: run.outcome,
    passRate: run.passRate ?? run.last?.passRate ?? null,
    iterations: run.iterations,
    agentCalls: run.agentCalls.length,
    seconds: run.seconds,
    localizeSeconds: run.localizeMs / 1000,
    timedOut: run.timedOut,
    reason: run.reason,
    // What to read first when the two sides differ: the failures left, the agent's rejected answers, warnings.
    remaining: (run.last?.failures ?? []).slice(0, 3).map((f) => `${f.id}: ${f.message}`),
    rejected: run.rejected.slice(0, 3),
    problems: run.problems.slice(0, 3),
    stderr: run.outcome ? undefined : run.stderr,
  };
}

const sameOutcome = (a, b) =>
  a.exit === b.exit && a.outcome === b.outcome && a.passRate === b.passRate && a.iterations === b.iterations;

/** One project's comparison row: both runs' outcomes, the time ratio (on over off) and the flags raised. */
export async function compareProject(entry, { log = () => {} } = {}) {
  const row = { name: entry.name, runner: entry.runner };
  const why = notRunnableHere(entry);
  if (why) return { ...row, skipped: why };
  const dir = await prepare(entry, log);
  const base = await baseCommit(dir);
  await resetTo(dir, base);
  if (!(await baseKnownGreen(dir, base))) {
    log('fixcycle on the unbroken project first (records it green: the change evidence starts there)');
    await fixcycle(dir, entry, cleanSpec(entry), 'corpus-clean');
    await resetTo(dir, base);
  }
  const { brokenSha, spec } = await commitBug(dir, entry);
  await resetTo(dir, brokenSha);
  // Each run's session folder is kept to read (<cache>/localize-compare-sessions/NAME/on|off); a reset removes it.
  const kept = join(cacheRoot(), 'localize-compare-sessions', entry.name);
  rmSync(kept, { recursive: true, force: true });
  for (const side of ['on', 'off']) {
    log(`fixcycle on the broken project, localization ${side}`);
    row[side] = outcomeOf(await fixcycle(dir, entry, spec, `corpus-localize-${side}`, { localize: side === 'on' }));
    cpSync(sessionStore(dir), join(kept, side), { recursive: true });
    await resetTo(dir, side === 'on' ? brokenSha : base);
  }
  row.ratio = row.on.seconds / row.off.seconds;
  row.flags = flagsOf(row);
  return row;
}

export function flagsOf(row) {
  const flags = [];
  if (row.ratio > LOOP_RATIO_LIMIT) flags.push(`slower x${row.ratio.toFixed(2)}`);
  if (!sameOutcome(row.on, row.off)) flags.push('outcome differs');
  return flags;
}

/** The bench's figures over the compared projects (skipped and failed ones left out). */
export function compareMetrics(rows) {
  const done = rows.filter((r) => r.on && r.off);
  if (done.length === 0) return {};
  return {
    localization_loop_ratio_max: Math.max(...done.map((r) => r.ratio)),
    localization_outcome_changes: done.filter((r) => !sameOutcome(r.on, r.off)).length,
    localization_loop_projects: done.length,
  };
}

// The done event's pass rate is a percentage already.
const pct = (rate) => (typeof rate === 'number' ? `${+rate.toFixed(1)}%` : '-');
const side = (o) => `exit ${o.exit ?? '-'} ${pct(o.passRate)} it ${o.iterations}`.padEnd(17);

export const COMPARE_HEADER = `${'project'.padEnd(26)} ${'runner'.padEnd(9)} ${'on: exit pass it'.padEnd(17)} ${'off: exit pass it'.padEnd(17)} ${'on s'.padStart(7)} ${'off s'.padStart(7)} ${'ratio'.padStart(6)} ${'loc s'.padStart(6)}  flags`;

export function formatCompareRow(r) {
  const head = `${r.name.padEnd(26)} ${String(r.runner ?? '').padEnd(9)}`;
  if (r.skipped) return `${head} skipped: ${r.skipped}`;
  if (r.error) return `${head} ERROR ${r.error}`;
  const line = `${head} ${side(r.on)} ${side(r.off)} ${r.on.seconds.toFixed(1).padStart(7)} ${r.off.seconds.toFixed(1).padStart(7)} ${r.ratio.toFixed(2).padStart(6)} ${r.on.localizeSeconds.toFixed(1).padStart(6)}  ${r.flags.join(', ') || 'ok'}`;
  const notes = [];
  for (const [label, o] of [
    ['on', r.on],
    ['off', r.off],
  ]) {
    if (o.timedOut) notes.push(`    ${label}: TIMED OUT`);
    if (o.outcome !== 'success' && (o.reason || o.stderr))
      notes.push(`    ${label}: ${o.outcome ?? 'no outcome'}: ${(o.reason || o.stderr).slice(0, 160)}`);
    if (o.outcome !== 'success')
      for (const f of o.remaining ?? []) notes.push(`    ${label}: left failing ${f.slice(0, 160)}`);
  }
  return [line, ...notes].join('\n');
}
