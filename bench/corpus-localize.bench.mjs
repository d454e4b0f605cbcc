// A corpus bench (it localizes every broken project of test/corpus, about half an hour): runs with --corpus only.
// Localization on every broken corpus project (scripts/localize-corpus.mjs): the share of projects whose buggy
// function fixcycle ranks first (localization_top1_function) or among the first five (..._top5_function), whose
// buggy line is among the five best lines (..._top5_line), and the median time of localization over one run of
// the failing tests (localization_cost_ratio, its max beside it). The headline figures use the evidence the
// corpus run gives fixcycle (a green run of the published state before the bug, so the change is known); the
// _no_change figures rank from coverage and stack frames alone. Also the analysis prompt's median size with
// suspects and without. FIXCYCLE_CORPUS_ONLY=a,b measures some projects only.
import { localizeCorpus } from '../scripts/localize-corpus.mjs';

const ONLY = (process.env.FIXCYCLE_CORPUS_ONLY ?? '').split(',').filter(Boolean);

export default async function () {
  const { rows, metrics } = await localizeCorpus({ only: ONLY });
  for (const row of rows.filter((r) => r.error)) process.stdout.write(`  skipped ${row.name}: ${row.error}\n`);
  return Object.fromEntries(Object.entries(metrics).filter(([, v]) => v !== null));
}
