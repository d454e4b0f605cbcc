// One generation-corpus project under `fixcycle team --pipeline standard -y` (or comprehensive): the L1 generator
// writes the removed test file back, the L2 (and L3) generator another real test file of the project (removed from
// `main` for this run), the executors measure coverage with the project's own tool. Returns the row team-table.mjs prints.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { commit } from '../corpus/prepare.mjs';
import { parseEvents } from '../corpus/events.mjs';
import { run, runOrThrow } from '../corpus/process.mjs';
import { brokenCommitted, committedFiles, fileAtHead, importable, testTitles } from './inspect.mjs';
import { envFor, genCacheRoot, prepare, resetProject, userTestArgs } from './prepare.mjs';
import { AGENT, CLI, clearFlakyMarkers, writeSpec } from './run-project.mjs';

const RUN_TIMEOUT_MS = Number(process.env.FIXCYCLE_CORPUS_TIMEOUT_SEC || 900) * 1000;
// Every test run team starts is bounded: a suite that never exits is named by fixcycle, not left to the run's bound.
const TEST_TIMEOUT = process.env.FIXCYCLE_CORPUS_TEST_TIMEOUT || '5m';

/** `main` without the L2 (and L3) files too, `feature` rebased on it: each layer's generator has a real file to write back. */
async function withoutLayerFiles(dir, files) {
  const git = (...args) => runOrThrow(['git', ...args], { cwd: dir });
  const texts = {};
  for (const file of files) texts[file] = (await git('show', `main:${file}`)).stdout;
  await git('checkout', '-q', 'main');
  await git('rm', '-q', '--', ...files);
  await commit(dir, `gen-corpus: without ${files.join(', ')} (team's generators write them back)`);
  await git('checkout', '-q', 'feature');
  await git('rebase', '-q', 'main');
  return texts;
}

function teamSession(dir) {
  const root = join(dir, '.workflow', '.csv-wave');
  if (!existsSync(root)) return null;
  const name = readdirSync(root).find((n) => existsSync(join(root, n, 'tasks.csv')));
  return name ? join(root, name) : null;
}

/**
 * Each bad generation of L1's menu: committed or not, and the words of team's gates that name its file (an L0
 * finding, a drop, a failing test in an executor's run), each matched against the kind's right reason.
 */
async function teamBadOutcomes(dir, bad, said, env) {
  // Progress lines name a file without judging it (`quality: collection: <file> alone`, a coverage run).
  const progress = /^quality: (collection|coverage|stability|mutant)/;
  // A line joins several verdicts with "; ". A verdict's own "; L0 on the file: a; b" stays with it: the pieces after
  // one that names a file belong to it until one names a verdict of its own.
  const verdict = /^(dropped|critical|warning|quality:|L0 round)/;
  const pieces = said.flatMap((s) =>
    String(s ?? '')
      .split('\n')
      .flatMap((line) =>
        line.split(/;\s/).reduce((acc, part) => {
          const p = part.trim();
          if (acc.length > 0 && !verdict.test(p) && !bad.some((b) => p.includes(b.file)))
            acc[acc.length - 1] += `; ${p}`;
          else acc.push(p);
          return acc;
        }, []),
      ),
  );
  const out = [];
  for (const b of bad) {
    const words = [...new Set(pieces.filter((p) => p.includes(b.file) && !progress.test(p)))];
    const right = words.filter((w) => new RegExp(b.reason, 'i').test(w.replaceAll(b.file, '')));
    const installed = b.absentModule ? await importable(dir, b.absentModule, env) : false;
    out.push({
      kind: b.kind,
      file: b.file,
      committed: (await fileAtHead(dir, b.file)) !== null,
      right: right.length > 0,
      ...(installed
        ? { notMeasurable: `${b.absentModule} is installed here, so its import is not a hallucination` }
        : {}),
      by: [...right, ...words.filter((w) => !right.includes(w))].slice(0, 3).map((w) => w.slice(0, 300)),
    });
  }
  return out;
}

/** `pipeline`: standard (one writer a wave, in the main tree) or comprehensive (generators L1 ∥ L2 in worktrees; needs `team.l3`). */
export async function runTeam(entry, { log = () => {}, pipeline = 'standard' } = {}) {
  if (pipeline === 'comprehensive' && !entry.team.l3)
    throw new Error(`${entry.name} has no team.l3 file for the comprehensive pipeline's L3 generator`);
  const row = { name: entry.name, family: entry.family, runner: entry.runner, pipeline };
  const dir = await prepare(entry, log);
  await resetProject(dir);
  clearFlakyMarkers(entry);
  const { l2, l3 } = entry.team;
  const texts = await withoutLayerFiles(dir, pipeline === 'comprehensive' ? [l2, l3] : [l2]);
  const base = (await runOrThrow(['git', 'rev-parse', 'HEAD'], { cwd: dir })).stdout.trim();
  const { path, spec } = writeSpec(entry, {
    team: true,
    l2: { file: l2, text: texts[l2] },
    ...(texts[l3] ? { l3: { file: l3, text: texts[l3] } } : {}),
  });
  const told = path.replace(/\.team\.json$/, '.feedback.log');
  rmSync(told, { force: true });
  log(`fixcycle team --pipeline ${pipeline} -y with the scripted generator`);
  const args = [
    CLI,
    'team',
    '--pipeline',
    pipeline,
    '-y',
    '--headless',
    '--json',
    '--test-timeout',
    TEST_TIMEOUT,
    '--agent-timeout',
    '2m',
    '--agent-cmd',
    `${process.execPath} ${AGENT} ${path}`,
    // What a user passes when fixcycle asks for it (a copy with no runner config: `--runner pytest`).
    ...(entry.team.cli ?? []),
    ...userTestArgs(entry),
  ];
  const team = await run([process.execPath, ...args], { cwd: dir, env: envFor(entry), timeoutMs: RUN_TIMEOUT_MS });
  // The run's own events, kept beside the table (the project is reset after the run).
  mkdirSync(join(genCacheRoot(), 'team-logs'), { recursive: true });
  writeFileSync(join(genCacheRoot(), 'team-logs', `${entry.name}.${pipeline}.ndjson`), team.stdout);
  const events = parseEvents(team.stdout);
  row.exit = team.code;
  row.seconds = team.seconds;
  row.timedOut = team.timedOut;
  row.stderr = team.stderr.trim().split('\n').slice(-3).join(' | ').slice(0, 300);
  const session = teamSession(dir);
  const tasks = session ? parse(readFileSync(join(session, 'tasks.csv'), 'utf8'), { columns: true }) : [];
  row.tasks = tasks.map((t) => ({
    id: t.id,
    role: t.role,
    layer: t.layer,
    status: t.status,
    pass_rate: t.pass_rate,
    coverage: t.coverage_achieved,
    error: t.error,
    files: t.test_files,
  }));
  // Where each writing task ran, as its own lines say (a worktree, and what was linked into it).
  const details = events.filter((e) => e.type === 'team-task' && e.detail).map((e) => ({ id: e.id, detail: e.detail }));
  const whereOf = (id) => {
    const said = details
      .filter((d) => d.id === id && /worktree|main tree|linked/i.test(d.detail))
      .map((d) => d.detail.slice(0, 240));
    return said.find((d) => /own worktree|linked/i.test(d)) ?? said[0] ?? null;
  };
  row.where = Object.fromEntries(tasks.filter((t) => /TESTGEN|TESTRUN/.test(t.id)).map((t) => [t.id, whereOf(t.id)]));
  row.coverageEvents = events
    .filter((e) => e.type === 'team-coverage')
    .map((e) => ({
      layer: e.layer,
      round: e.round,
      passRate: e.passRate,
      coverage: e.coverage,
      target: e.target,
      accepted: e.accepted ?? null,
    }));
  row.checkSkipped =
    session && existsSync(join(session, 'discoveries.ndjson'))
      ? readFileSync(join(session, 'discoveries.ndjson'), 'utf8')
          .split('\n')
          .filter((l) => l.includes('check_skipped'))
          .map((l) => l.slice(0, 200))
      : [];
  const files = (await committedFiles(dir, base)).filter((f) => f !== entry.gen.target && !f.startsWith('.workflow'));
  row.committed = files;
  row.broken = await brokenCommitted(dir, entry, files, envFor(entry));
  const atHead = async (file) => (await run(['git', 'show', `HEAD:${file}`], { cwd: dir })).stdout;
  row.realBack = { [entry.gen.removed]: (await atHead(entry.gen.removed)) === spec.real.text };
  for (const [file, text] of Object.entries(texts)) row.realBack[file] = (await atHead(file)) === text;
  row.realTests = {};
  for (const [file, text] of [[entry.gen.removed, spec.real.text], ...Object.entries(texts)]) {
    const declared = testTitles(text, entry.gen.lang);
    const left = testTitles((await fileAtHead(dir, file)) ?? '', entry.gen.lang);
    row.realTests[file] = { total: declared.length, committed: declared.filter((t) => left.includes(t)).length };
  }
  row.bad = await teamBadOutcomes(
    dir,
    spec.bad,
    [
      ...events.filter((e) => e.type === 'team-task' || e.type === 'log').map((e) => e.detail ?? e.message ?? ''),
      ...tasks.flatMap((t) => [t.findings, t.error]),
      ...(existsSync(told) ? readFileSync(told, 'utf8').split('\n') : []),
    ],
    envFor(entry),
  );
  clearFlakyMarkers(entry);
  await resetProject(dir);
  return row;
}
