// One generation-corpus project: the bare published suite timed, then `fixcycle gen` with the scripted generator,
// then what it committed read back (inspect.mjs). Returns the row the table prints.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { run } from '../corpus/process.mjs';
import { parseEvents } from '../corpus/events.mjs';
import { readSummary, summaryCommand } from '../corpus/summary.mjs';
import { badMenu } from './bad-menu.mjs';
import { badOutcomes, brokenCommitted, committedFiles, readGenState, realTests } from './inspect.mjs';
import { envFor, genCacheRoot, originalPath, prepare, resetProject, userTestArgs } from './prepare.mjs';

export const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
export const AGENT = fileURLToPath(new URL('./agent.mjs', import.meta.url));
const RUN_TIMEOUT_MS = Number(process.env.FIXCYCLE_CORPUS_TIMEOUT_SEC || 900) * 1000;

/** The markers the flaky generation leaves in the temporary folder, so each run starts from the same state. */
export function clearFlakyMarkers(entry) {
  for (const f of readdirSync(tmpdir()).filter((n) => n.startsWith(`${entry.gen.stem}-warm-`)))
    rmSync(join(tmpdir(), f), { force: true });
}

/** The bare published suite (the removed file back in place): its time and the runner's own counts. */
export async function bareRun(dir, entry) {
  writeFileSync(join(dir, entry.gen.removed), readFileSync(originalPath(entry), 'utf8'));
  const command = summaryCommand(entry);
  const r = await run(command, { cwd: dir, env: envFor(entry), timeoutMs: RUN_TIMEOUT_MS });
  await resetProject(dir);
  return {
    command,
    exit: r.code,
    seconds: r.seconds,
    timedOut: r.timedOut,
    summary: readSummary(entry.runner, r.stdout + r.stderr),
  };
}

/** The scripted generator's spec file for this project; returns its path. */
export function writeSpec(entry, extra = {}) {
  const dir = join(genCacheRoot(), 'agent-specs');
  mkdirSync(dir, { recursive: true });
  const log = join(dir, `${entry.name}.calls.log`);
  rmSync(log, { force: true });
  const spec = {
    log,
    target: entry.gen.target,
    subject: entry.gen.use.subject,
    summary: entry.gen.summary,
    cases: entry.gen.cases,
    real: { file: entry.gen.removed, text: readFileSync(originalPath(entry), 'utf8') },
    bad: badMenu(entry),
    ...extra,
  };
  const path = join(dir, `${entry.name}${extra.team ? '.team' : ''}.json`);
  writeFileSync(path, JSON.stringify(spec, null, 2));
  return { path, spec };
}

const firstLine = (s) =>
  String(s ?? '')
    .split('\n')
    .find((l) => l.trim())
    ?.trim()
    .slice(0, 160) ?? '';

/** The fix loop's baseline after gen: the first full run of IMPL-002, and how the run ended. */
function afterGen(events) {
  const start = events.findIndex((e) => e.type === 'gen' && e.node === 'IMPL-002' && e.status === 'running');
  const results = (start < 0 ? [] : events.slice(start)).filter((e) => e.type === 'results').map((e) => e.results);
  const baseline = results.find((r) => r.scope === 'full') ?? results[0] ?? null;
  const coverage = events.filter((e) => e.type === 'gen-coverage').at(-1) ?? null;
  const done = events.find((e) => e.type === 'done');
  const failedNodes = events
    .filter((e) => e.type === 'gen' && e.status === 'failed')
    .map((e) => `${e.node}: ${firstLine(e.detail)}`);
  return {
    baseline: baseline && {
      total: baseline.total,
      passed: baseline.passed,
      failed: baseline.failed + (baseline.own_failures?.length ?? 0),
      own: (baseline.own_failures ?? []).length,
      skipped: baseline.skipped,
      errors: (baseline.errors ?? []).map((x) => firstLine(x.message ?? x.summary ?? JSON.stringify(x))),
      failures: (baseline.failures ?? []).slice(0, 4).map((f) => `${f.id}: ${firstLine(f.message)}`),
    },
    coverage: coverage && { measured: coverage.measured, reason: coverage.reason ?? null, files: coverage.files },
    outcome: done?.outcome ?? null,
    reason: done ? firstLine(done.reason) : null,
    failedNodes: [...new Set(failedNodes)].slice(0, 8),
    warnings: [
      ...new Set(
        events.filter((e) => e.type === 'log' && e.level !== 'info').map((e) => `${e.level}: ${firstLine(e.message)}`),
      ),
    ].slice(0, 6),
  };
}

/** Runs `fixcycle gen` on one project and returns its row. */
export async function runGen(entry, { log = () => {} } = {}) {
  const row = {
    name: entry.name,
    family: entry.family,
    runner: entry.runner,
    lang: entry.gen.lang,
    removed: entry.gen.removed,
    target: entry.gen.target,
  };
  const dir = await prepare(entry, log);
  const base = await resetProject(dir);
  clearFlakyMarkers(entry);
  log('bare published suite');
  row.bare = await bareRun(dir, entry);
  const { path, spec } = writeSpec(entry);
  log('fixcycle gen with the scripted generator');
  const args = [
    CLI,
    'gen',
    '--headless',
    '--json',
    '--max-iterations',
    '3',
    '--test-timeout',
    '10m',
    '--agent-timeout',
    '2m',
    '--agent-cmd',
    `${process.execPath} ${AGENT} ${path}`,
    ...userTestArgs(entry),
  ];
  const gen = await run([process.execPath, ...args], { cwd: dir, env: envFor(entry), timeoutMs: RUN_TIMEOUT_MS });
  const events = parseEvents(gen.stdout);
  // The run's events, to read afterwards why a test was kept or dropped.
  mkdirSync(join(genCacheRoot(), 'gen-logs'), { recursive: true });
  writeFileSync(join(genCacheRoot(), 'gen-logs', `${entry.name}.ndjson`), gen.stdout);
  row.gen = {
    exit: gen.code,
    seconds: gen.seconds,
    timedOut: gen.timedOut,
    stderr: gen.stderr.trim().split('\n').slice(-3).join(' | ').slice(0, 300),
    ...afterGen(events),
  };
  const state = readGenState(dir);
  row.state = state && {
    kept: state.kept.length,
    rejected: state.rejected.length,
    rounds: state.generate_round,
    outcome: state.outcome ?? null,
    commit: state.gen_commit,
  };
  row.real = await realTests(dir, entry, spec.real.text, state);
  row.bad = await badOutcomes(dir, spec.bad, state, envFor(entry));
  const files = await committedFiles(dir, base);
  row.committedTests = files.filter((f) => f !== entry.gen.target);
  log('committed files, each alone');
  row.broken = await brokenCommitted(dir, entry, row.committedTests, envFor(entry));
  clearFlakyMarkers(entry);
  await resetProject(dir);
  return row;
}
