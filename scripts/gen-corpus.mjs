#!/usr/bin/env node
// npm run gen-corpus [-- --only NAME[,NAME]] [--quick] [--prepare] [--team] [--table]
// Re-creates the generation corpus (test/gen-corpus/projects.json) in the cache folder
// (FIXCYCLE_GEN_CORPUS_CACHE, default ~/.cache/fixcycle/gen-corpus), runs the built `fixcycle gen` on each with the
// scripted generator (scripts/gen-corpus/agent.mjs), prints the table and writes it to <cache>/last-run.json.
// --team runs `fixcycle team --pipeline standard -y` on the projects that have a `team` entry instead
// (`--team --pipeline comprehensive`: generators L1 ∥ L2 in worktrees, on those with a `team.l3` file too);
// --prepare only builds the cache; --table prints the last run again. FIXCYCLE_CORPUS_TIMEOUT_SEC bounds each run (default 900).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { genCacheRoot, prepare } from './gen-corpus/prepare.mjs';
import { CLI, runGen } from './gen-corpus/run-project.mjs';
import { runTeam } from './gen-corpus/run-team.mjs';
import { formatGenRow, formatGenTotals, genVerdicts } from './gen-corpus/table.mjs';
import { formatTeamRow, formatTeamTotals } from './gen-corpus/team-table.mjs';

const PROJECTS = fileURLToPath(new URL('../test/gen-corpus/projects.json', import.meta.url));

function parseArgs(argv) {
  const opts = { only: [], quick: false, prepareOnly: false, team: false, table: false, pipeline: 'standard' };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--quick') opts.quick = true;
    else if (arg === '--prepare') opts.prepareOnly = true;
    else if (arg === '--team') opts.team = true;
    else if (arg === '--pipeline') opts.pipeline = argv[++i] ?? '';
    else if (arg === '--table') opts.table = true;
    else if (arg === '--only') opts.only.push(...(argv[++i] ?? '').split(',').filter(Boolean));
    else if (arg.startsWith('--only=')) opts.only.push(...arg.slice(7).split(',').filter(Boolean));
    else {
      process.stderr.write(`gen-corpus: unknown option ${arg} (use --only NAME, --quick, --prepare, --team [--pipeline standard|comprehensive], --table)\n`);
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
    process.stderr.write(`gen-corpus: no project named ${unknown.join(', ')} in test/gen-corpus/projects.json\n`);
    process.exit(2);
  }
  if (opts.only.length > 0) entries = entries.filter((e) => opts.only.includes(e.name));
  if (opts.quick) entries = entries.filter((e) => e.quick);
  if (opts.team) entries = entries.filter((e) => e.team && (opts.pipeline !== 'comprehensive' || e.team.l3));
  if (!['standard', 'comprehensive'].includes(opts.pipeline)) {
    process.stderr.write(`gen-corpus: --pipeline takes standard or comprehensive, not ${opts.pipeline}\n`);
    process.exit(2);
  }
  if (!opts.prepareOnly && !existsSync(CLI)) {
    process.stderr.write('gen-corpus: dist/cli.js is missing: run npm run build first\n');
    process.exit(2);
  }
  mkdirSync(genCacheRoot(), { recursive: true });
  const out = join(genCacheRoot(), opts.team ? `last-team-${opts.pipeline}-run.json` : 'last-run.json');
  const [format, totals] = opts.team ? [formatTeamRow, formatTeamTotals] : [formatGenRow, formatGenTotals];
  if (opts.table) {
    if (!existsSync(out)) {
      process.stderr.write(`gen-corpus: no ${out} yet: run npm run gen-corpus first\n`);
      process.exit(2);
    }
    const rows = JSON.parse(readFileSync(out, 'utf8')).rows.filter((r) => entries.some((e) => e.name === r.name));
    for (const row of rows) process.stdout.write(format(row) + '\n');
    process.stdout.write(totals(rows) + '\n');
    return;
  }
  const rows = [];
  for (const entry of entries) {
    const log = (message) => process.stderr.write(`[${entry.name}] ${message}\n`);
    try {
      if (opts.prepareOnly) {
        await prepare(entry, log);
        log('ready');
        continue;
      }
      const row = opts.team ? await runTeam(entry, { log, pipeline: opts.pipeline }) : await runGen(entry, { log });
      rows.push(row);
      process.stdout.write(format(row) + '\n');
    } catch (error) {
      const row = { name: entry.name, family: entry.family, error: String(error.message).split('\n').slice(0, 4).join(' | ') };
      rows.push(row);
      process.stdout.write(format(row) + '\n');
    }
  }
  if (opts.prepareOnly) return;
  process.stdout.write(totals(rows) + '\n');
  const previous = existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : { rows: [] };
  // A run of some projects updates their rows and keeps the others'.
  const merged = [...previous.rows.filter((r) => !rows.some((n) => n.name === r.name)), ...rows];
  writeFileSync(out, JSON.stringify({ finishedAt: new Date().toISOString(), rows: merged.map((r) => (opts.team || r.error ? r : { ...r, verdicts: genVerdicts(r) })) }, null, 2) + '\n');
  process.stdout.write(`wrote ${out}\n`);
}

await main();
