#!/usr/bin/env node
// npm run corpus [-- --only NAME[,NAME]] [--quick] [--prepare] [--no-localize] [--localize-compare] [--localize]
// Re-creates the corpus of published projects (test/corpus/projects.json) in the cache folder
// (FIXCYCLE_CORPUS_CACHE, default ~/.cache/fixcycle/corpus), runs the built fixcycle on each, unbroken and
// with its injected bug, prints the table and writes it as JSON to <cache>/last-run.json.
// --table prints the last run's table again, against the expected counts in projects.json now;
// --prepare only builds the cache; --record prints the bare runs' summaries (unbroken, broken) to record. FIXCYCLE_CORPUS_TIMEOUT_SEC bounds each run (default 480).
// --no-localize runs every fixcycle with --no-localize; --localize-compare runs each broken project with
// localization on, then off, and prints the outcomes and times side by side (<cache>/localize-compare.json);
// --localize ranks each broken project's buggy function without the loop, the change known and unknown
// (scripts/localize-corpus.mjs; its rows in <cache>/localize.json).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheRoot, prepare } from './corpus/prepare.mjs';
import { runProject, verdicts } from './corpus/run-project.mjs';
import {
  COMPARE_HEADER,
  compareMetrics,
  compareProject,
  formatCompareRow,
  LOOP_RATIO_LIMIT,
} from './corpus/localize-compare.mjs';
import { formatRow, formatTotals } from './corpus/table.mjs';
import { record } from './corpus/record.mjs';

const PROJECTS = fileURLToPath(new URL('../test/corpus/projects.json', import.meta.url));
const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

function parseArgs(argv) {
  const opts = {
    only: [],
    quick: false,
    prepareOnly: false,
    record: false,
    table: false,
    localize: true,
    compare: false,
    rank: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--quick') opts.quick = true;
    else if (arg === '--prepare') opts.prepareOnly = true;
    else if (arg === '--record') opts.record = true;
    else if (arg === '--table') opts.table = true;
    else if (arg === '--no-localize') opts.localize = false;
    else if (arg === '--localize-compare') opts.compare = true;
    else if (arg === '--localize') opts.rank = true;
    else if (arg === '--only') opts.only.push(...(argv[++i] ?? '').split(',').filter(Boolean));
    else if (arg.startsWith('--only=')) opts.only.push(...arg.slice(7).split(',').filter(Boolean));
    else {
      process.stderr.write(
        `corpus: unknown option ${arg} (use --only NAME, --quick, --prepare, --no-localize, --localize-compare, --localize)\n`,
      );
      process.exit(2);
    }
  }
  return opts;
}

export function loadProjects() {
  return JSON.parse(readFileSync(PROJECTS, 'utf8'));
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  let entries = loadProjects();
  const unknown = opts.only.filter((name) => !entries.some((e) => e.name === name));
  if (unknown.length > 0) {
    process.stderr.write(`corpus: no project named ${unknown.join(', ')} in test/corpus/projects.json\n`);
    process.exit(2);
  }
  if (opts.only.length > 0) entries = entries.filter((e) => opts.only.includes(e.name));
  if (opts.quick) entries = entries.filter((e) => e.quick);
  if (!opts.prepareOnly && !existsSync(CLI)) {
    process.stderr.write('corpus: dist/cli.js is missing: run npm run build first\n');
    process.exit(2);
  }
  mkdirSync(cacheRoot(), { recursive: true });
  if (opts.compare) return opts.table ? printLastComparison(entries) : compareAll(entries);
  if (opts.rank) return rankAll(entries);
  if (opts.table) return printLastRun(entries);
  process.stdout.write(`localization ${opts.localize ? 'on' : 'off (--no-localize)'}\n`);
  const rows = [];
  for (const entry of entries) {
    const log = (message) => process.stderr.write(`[${entry.name}] ${message}\n`);
    try {
      if (opts.prepareOnly || opts.record) {
        await (opts.record ? record(entry, log) : prepare(entry, log));
        log('ready');
        continue;
      }
      const row = await runProject(entry, { log, localize: opts.localize });
      rows.push(row);
      process.stdout.write(formatRow(row) + '\n');
    } catch (error) {
      const row = {
        name: entry.name,
        family: entry.family,
        expectedRunner: entry.runner,
        error: String(error.message).split('\n').slice(0, 4).join(' | '),
      };
      rows.push(row);
      process.stdout.write(formatRow(row) + '\n');
    }
  }
  if (opts.prepareOnly || opts.record) return;
  process.stdout.write(formatTotals(rows) + '\n');
  const out = join(cacheRoot(), 'last-run.json');
  const previous = existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : { rows: [] };
  const merged = mergeRows(previous.rows, rows);
  writeFileSync(
    out,
    JSON.stringify(
      {
        finishedAt: new Date().toISOString(),
        rows: merged.map((r) => ({ ...r, localize: r.localize ?? true, verdicts: r.error ? null : verdicts(r) })),
      },
      null,
      2,
    ) + '\n',
  );
  process.stdout.write(`wrote ${out}\n`);
}

/** A run of some projects updates their rows and keeps the others'. */
function mergeRows(previous, rows) {
  return [...previous.filter((r) => !rows.some((n) => n.name === r.name)), ...rows];
}

const compareFile = () => join(cacheRoot(), 'localize-compare.json');
const compareHeader = () =>
  `localization on vs off (--no-localize), broken projects; flagged: ratio > ${LOOP_RATIO_LIMIT} or another outcome\n${COMPARE_HEADER}\n`;

function printLastComparison(entries) {
  if (!existsSync(compareFile())) {
    process.stderr.write(`corpus: no ${compareFile()} yet: run npm run corpus -- --localize-compare first\n`);
    process.exit(2);
  }
  const rows = JSON.parse(readFileSync(compareFile(), 'utf8')).rows.filter((r) =>
    entries.some((e) => e.name === r.name),
  );
  process.stdout.write(compareHeader());
  for (const row of rows) process.stdout.write(formatCompareRow(row) + '\n');
  for (const [name, value] of Object.entries(compareMetrics(rows)))
    process.stdout.write(`${name} ${+value.toFixed(3)}\n`);
}

async function compareAll(entries) {
  process.stdout.write(compareHeader());
  const out = compareFile();
  let kept = existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')).rows : [];
  const rows = [];
  for (const entry of entries.filter((e) => e.bug)) {
    const log = (message) => process.stderr.write(`[${entry.name}] ${message}\n`);
    let row;
    try {
      row = await compareProject(entry, { log });
    } catch (error) {
      row = {
        name: entry.name,
        runner: entry.runner,
        error: String(error.message).split('\n').slice(0, 4).join(' | '),
      };
    }
    rows.push(row);
    process.stdout.write(formatCompareRow(row) + '\n');
    // Written after each project: a long run stopped half-way keeps what it measured.
    kept = mergeRows(kept, [row]);
    writeFileSync(
      out,
      JSON.stringify({ finishedAt: new Date().toISOString(), rows: kept, metrics: compareMetrics(kept) }, null, 2) +
        '\n',
    );
  }
  const flagged = rows.filter((r) => r.flags?.length);
  process.stdout.write(
    `${rows.filter((r) => r.on).length} compared, ${rows.filter((r) => r.skipped).length} skipped, ${rows.filter((r) => r.error).length} errors; flagged: ${flagged.map((r) => r.name).join(', ') || 'none'}\n`,
  );
  for (const [name, value] of Object.entries(compareMetrics(kept)))
    process.stdout.write(`${name} ${+value.toFixed(3)} (all rows in ${out})\n`);
}

function printLastRun(entries) {
  const file = join(cacheRoot(), 'last-run.json');
  if (!existsSync(file)) {
    process.stderr.write(`corpus: no ${file} yet: run npm run corpus first\n`);
    process.exit(2);
  }
  const rows = JSON.parse(readFileSync(file, 'utf8'))
    .rows.filter((r) => entries.some((e) => e.name === r.name))
    .map((r) => ({ ...r, expected: entries.find((e) => e.name === r.name).expected ?? null }));
  for (const row of rows) process.stdout.write(formatRow(row) + '\n');
  process.stdout.write(formatTotals(rows) + '\n');
}

await main();

/** `--localize`: each broken project's rank of the buggy function, the change known and unknown. */
async function rankAll(entries) {
  const { localizeCorpus, formatMetrics } = await import('./localize-corpus.mjs');
  const out = await localizeCorpus({
    only: entries.map((e) => e.name),
    log: (m) => process.stderr.write(m + '\n'),
  });
  writeFileSync(join(cacheRoot(), 'localize.json'), JSON.stringify(out, null, 2) + '\n');
  process.stdout.write(formatMetrics(out.metrics));
}
