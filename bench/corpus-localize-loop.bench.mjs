// localization_loop_ratio_max: the fix loop's wall time on each broken corpus project with localization over
// the same run with --no-localize (the most of any project; issue 17 asks for at most 1.5), and
// localization_outcome_changes: the projects whose outcome (exit, pass rate, iterations) differs between the
// two. Same runs as `npm run corpus -- --localize-compare`; projects whose runner's tool is missing are left out.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compareMetrics, compareProject } from '../scripts/corpus/localize-compare.mjs';

const PROJECTS = fileURLToPath(new URL('../test/corpus/projects.json', import.meta.url));
// FIXCYCLE_CORPUS_ONLY=a,b measures some projects only (a quicker look; the metrics are the whole corpus).
const ONLY = (process.env.FIXCYCLE_CORPUS_ONLY ?? '').split(',').filter(Boolean);

export default async function () {
  const entries = JSON.parse(readFileSync(PROJECTS, 'utf8')).filter(
    (e) => e.bug && (ONLY.length === 0 || ONLY.includes(e.name)),
  );
  const rows = [];
  for (const entry of entries) {
    try {
      rows.push(await compareProject(entry));
    } catch (error) {
      process.stdout.write(`  corpus: left out ${entry.name}: ${String(error.message).split('\n')[0]}\n`);
    }
  }
  for (const r of rows.filter((x) => x.skipped)) process.stdout.write(`  corpus: left out ${r.name}: ${r.skipped}\n`);
  for (const r of rows.filter((x) => x.flags?.length))
    process.stdout.write(`  corpus: ${r.name} ${r.flags.join(', ')}\n`);
  return compareMetrics(rows);
}
