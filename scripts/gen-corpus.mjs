#!/usr/bin/env node
// npm run gen-corpus [-- --only NAME[,NAME]] [--quick] [--prepare] [--team] [--table] [--held-out]
// Re-creates the generation corpus (test/gen-corpus/projects.json) in the cache folder
// (FIXCYCLE_GEN_CORPUS_CACHE, default ~/.cache/fixcycle/gen-corpus), runs the built `fixcycle gen` on each with the
// scripted generator (scripts/gen-corpus/agent.mjs), prints the table and writes it to <cache>/last-run.json.
// --team runs `fixcycle team --pipeline standard -y` on the projects that have a `team` entry instead
// (`--team --pipeline comprehensive`: generators L1 ∥ L2 in worktrees, on those with a `team.l3` file too);
// --prepare only builds the cache; --table prints the last run again. FIXCYCLE_CORPUS_TIMEOUT_SEC bounds each run (default 900).
// --held-out takes the projects of test/gen-corpus/held-out.json instead (not part of npm test; their first run is
// the result to report), with their own last-run file.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { genCacheRoot, prepare } from './gen-corpus/prepare.mjs';
import { CLI, runGen } from './gen-corpus/run-project.mjs';
import { runTeam } from './gen-corpus/run-team.mjs';
import { formatGenRow, formatGenTotals, genVerdicts } from './gen-corpus/table.mjs';
import { formatTeamRow, formatTeamTotals } from './gen-corpus/team-table.mjs';

const PROJECTS = fileURLToPath(new URL('../test/gen-corpus/projects.json', import.meta.url));
const HELD_OUT = fileURLToPath(new URL('../test/gen-corpus/held-out.json', import.meta.url));

const USAGE =
  'use --only NAME[,NAME], --quick, --prepare, --team [--pipeline standard|comprehensive], --table, --held-out';

function fail(message) {
  process.stderr.write(`gen-corpus: ${message}\n`);
  process.exit(2);
}

function options() {
  let parsed;
  try {
    parsed = parseArgs({
      options: {
        only: { type: 'string', multiple: true, default: [] },
        quick: { type: 'boolean' },
        prepare: { type: 'boolean' },
        team: { type: 'boolean' },
        table: { type: 'boolean' },
        pipeline: { type: 'string', default: 'standard' },
        'held-out': { type: 'boolean' },
      },
    }).values;
  } catch (error) {
    fail(`${error.message.split('\n')[0]} (${USAGE})`);
  }
  if (!['standard', 'comprehensive'].includes(parsed.pipeline))
    fail(`--pipeline takes standard or comprehensive, not ${parsed.pipeline}`);
  return { ...parsed, only: parsed.only.flatMap((o) => o.split(',')).filter(Boolean) };
}

/** The corpus, or with `heldOut` the held-out projects (held-out.json), which nothing has been fitted to yet. */
export function loadProjects(heldOut = false) {
  return JSON.parse(readFileSync(heldOut ? HELD_OUT : PROJECTS, 'utf8'));
}

/** The entries the options pick; a name that is not in the file is an error naming it. */
function pick(all, opts) {
  const missing = opts.only.filter((name) => !all.some((e) => e.name === name));
  const file = opts['held-out'] ? 'held-out.json' : 'projects.json';
  if (missing.length) fail(`no project named ${missing.join(', ')} in test/gen-corpus/${file}`);
  return all.filter(
    (e) =>
      (opts.only.length === 0 || opts.only.includes(e.name)) &&
      (!opts.quick || e.quick) &&
      (!opts.team || (e.team && (opts.pipeline !== 'comprehensive' || e.team.l3))),
  );
}

async function main() {
  const opts = options();
  const entries = pick(loadProjects(opts['held-out']), opts);
  if (!opts.prepare && !existsSync(CLI)) {
    process.stderr.write('gen-corpus: dist/cli.js is missing: run npm run build first\n');
    process.exit(2);
  }
  mkdirSync(genCacheRoot(), { recursive: true });
  const held = opts['held-out'] ? 'held-out-' : '';
  const out = join(genCacheRoot(), opts.team ? `${held}last-team-${opts.pipeline}-run.json` : `${held}last-run.json`);
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
  // Written after every project, so a run cut short keeps the rows it finished; other projects' rows stay.
  const save = () => {
    const previous = existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : { rows: [] };
    const merged = [...previous.rows.filter((r) => !rows.some((n) => n.name === r.name)), ...rows];
    writeFileSync(
      out,
      JSON.stringify(
        {
          finishedAt: new Date().toISOString(),
          rows: merged.map((r) => (opts.team || r.error ? r : { ...r, verdicts: genVerdicts(r) })),
        },
        null,
        2,
      ) + '\n',
    );
  };
  for (const entry of entries) {
    const log = (message) => process.stderr.write(`[${entry.name}] ${message}\n`);
    try {
      if (opts.prepare) {
        await prepare(entry, log);
        log('ready');
        continue;
      }
      rows.push(opts.team ? await runTeam(entry, { log, pipeline: opts.pipeline }) : await runGen(entry, { log }));
    } catch (error) {
      rows.push({
        name: entry.name,
        family: entry.family,
        error: String(error.message).split('\n').slice(0, 4).join(' | '),
      });
    }
    process.stdout.write(format(rows.at(-1)) + '\n');
    save();
  }
  if (opts.prepare) return;
  process.stdout.write(totals(rows) + '\n');
  process.stdout.write(`wrote ${out}\n`);
}

await main();
