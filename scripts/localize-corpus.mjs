#!/usr/bin/env node
// node scripts/localize-corpus.mjs [--only NAME[,NAME]] [--json FILE]: for every broken corpus project, the rank
// of the injected bug's function and line among fixcycle's suspects (with and without the change evidence),
// the localization time over one run of the failing tests, and the analysis prompt's size with and without
// suspects. Needs the built engine (npm run build) and the corpus cache (npm run corpus -- --prepare).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { localizeProject } from './corpus/localize.mjs';

const PROJECTS = fileURLToPath(new URL('../test/corpus/projects.json', import.meta.url));

export async function localizeCorpus({ only = [], log = () => {} } = {}) {
  const entries = JSON.parse(readFileSync(PROJECTS, 'utf8')).filter((e) => only.length === 0 || only.includes(e.name));
  const rows = [];
  for (const entry of entries) {
    try {
      rows.push(await localizeProject(entry, { log: (m) => log(`[${entry.name}] ${m}`) }));
    } catch (error) {
      rows.push({ name: entry.name, error: String(error.message).split('\n')[0] });
    }
    log(formatRow(rows.at(-1)));
  }
  return { rows, metrics: metrics(rows) };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length === 0 ? null : s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const share = (rows, ok) => (rows.length ? rows.filter(ok).length / rows.length : null);
const within = (rank, n) => rank !== null && rank !== undefined && rank <= n;

/** The bench's figures: shares over every project (an error counts as a miss). */
export function metrics(rows) {
  const ok = rows.filter((r) => !r.error);
  const prompt = ok.map((r) => r.promptChars);
  return {
    localization_top1_function: share(rows, (r) => within(r.withChange?.functionRank, 1)),
    localization_top5_function: share(rows, (r) => within(r.withChange?.functionRank, 5)),
    localization_top5_line: share(rows, (r) => within(r.withChange?.lineRank, 5)),
    localization_cost_ratio: median(ok.map((r) => r.costRatio)),
    localization_cost_ratio_max: ok.length ? Math.max(...ok.map((r) => r.costRatio)) : null,
    localization_top1_function_no_change: share(rows, (r) => within(r.withoutChange?.functionRank, 1)),
    localization_top5_function_no_change: share(rows, (r) => within(r.withoutChange?.functionRank, 5)),
    localization_top5_line_no_change: share(rows, (r) => within(r.withoutChange?.lineRank, 5)),
    localization_prompt_chars_median: median(prompt.map((p) => p.withSuspects)),
    localization_prompt_chars_median_before: median(prompt.map((p) => p.today)),
  };
}

export const formatMetrics = (metrics) =>
  Object.entries(metrics)
    .map(([name, value]) => `${name.padEnd(40)} ${value === null ? '-' : +value.toFixed(3)}\n`)
    .join('');

export function formatRow(r) {
  if (r.error) return `${r.name.padEnd(26)} error: ${r.error}`;
  const rank = (x) => String(x ?? '-').padStart(3);
  return `${r.name.padEnd(26)} ${r.runner.padEnd(8)} ${(r.granularity ?? 'none').padEnd(5)} fn ${rank(r.withChange.functionRank)} line ${rank(r.withChange.lineRank)} | no change: fn ${rank(r.withoutChange.functionRank)} line ${rank(r.withoutChange.lineRank)} | cost ${r.costRatio.toFixed(2)} | prompt ${r.promptChars.today} -> ${r.promptChars.withSuspects} | ${(r.truth.places ?? [r.truth]).map((p) => `${p.file}:${p.function}:${p.lines.join(',')}`).join(' + ')}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const only = [];
  let json = null;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--only') only.push(...(args[++i] ?? '').split(',').filter(Boolean));
    else if (args[i] === '--json') json = args[++i];
    else {
      process.stderr.write(`localize-corpus: unknown option ${args[i]} (use --only NAME, --json FILE)\n`);
      process.exit(2);
    }
  }
  const out = await localizeCorpus({ only, log: (m) => process.stderr.write(m + '\n') });
  process.stdout.write(formatMetrics(out.metrics));
  if (json) writeFileSync(json, JSON.stringify(out, null, 2) + '\n');
}
