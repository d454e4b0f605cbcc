#!/usr/bin/env node
// npm run corpus [-- --only NAME[,NAME]] [--quick] [--prepare]
// Re-creates the corpus of published projects (test/corpus/projects.json) in the cache folder
// (FIXCYCLE_CORPUS_CACHE, default ~/.cache/fixcycle/corpus), runs the built fixcycle on each, unbroken and
// with its injected bug, prints the table and writes it as JSON to <cache>/last-run.json.
// --table prints the last run's table again, against the expected counts in projects.json now;
// --prepare only builds the cache; --record prints the bare runs' summaries (unbroken, broken) to record. FIXCYCLE_CORPUS_TIMEOUT_SEC bounds each run (default 480).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheRoot, prepare } from './corpus/prepare.mjs';
import { runProject, verdicts } from './corpus/run-project.mjs';
import { formatRow, formatTotals } from './corpus/table.mjs';
import { record } from './corpus/record.mjs';

const PROJECTS = fileURLToPath(new URL('../test/corpus/projects.json', import.meta.url));
const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

function parseArgs(argv) {
  const opts = { only: [], quick: false, prepareOnly: false, record: false, table: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--quick') opts.quick = true;
    else if (arg === '--prepare') opts.prepareOnly = true;
    else if (arg === '--record') opts.record = true;
    else if (arg === '--table') opts.table = true;
    else if (arg === '--only') opts.only.push(...(argv[++i] ?? '').split(',').filter(Boolean));
    else if (arg.startsWith('--only=')) opts.only.push(...arg.slice(7).split(',').filter(Boolean));
    else {
      process.stderr.write(`corpus: unknown option ${arg} (use --only NAME, --quick, --prepare)\n`);
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
  if (opts.table) return printLastRun(entries);
  const rows = [];
  for (const entry of entries) {
    const log = (message) => process.stderr.write(`[${entry.name}] ${message}\n`);
    try {
      if (opts.prepareOnly || opts.record) {
        await (opts.record ? record(entry, log) : prepare(entry, log));
        log('ready');
        continue;
      }
      const row = await runProject(entry, { log });
      rows.push(row);
      process.stdout.write(formatRow(row) + '\n');
    } catch (error) {
      const row = { name: entry.name, family: entry.family, expectedRunner: entry.runner, error: String(error.message).split('\n').slice(0, 4).join(' | ') };
      rows.push(row);
      process.stdout.write(formatRow(row) + '\n');
    }
  }
  if (opts.prepareOnly || opts.record) return;
  process.stdout.write(formatTotals(rows) + '\n');
  const out = join(cacheRoot(), 'last-run.json');
  const previous = existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : { rows: [] };
  // A run of some projects updates their rows and keeps the others'.
  const merged = [...previous.rows.filter((r) => !rows.some((n) => n.name === r.name)), ...rows];
  writeFileSync(out, JSON.stringify({ finishedAt: new Date().toISOString(), rows: merged.map((r) => ({ ...r, verdicts: r.error ? null : verdicts(r) })) }, null, 2) + '\n');
  process.stdout.write(`wrote ${out}\n`);
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
