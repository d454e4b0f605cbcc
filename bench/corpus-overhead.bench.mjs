// corpus_overhead_ratio: fixcycle's headless run on each unbroken corpus project (test/corpus/projects.json,
// runner found by fixcycle, no --test-cmd) over the project's bare test command, alternated; the median of
// the per-project ratios. Projects come from the corpus cache (built on first use; npm run corpus shares it).
// Without a registry nothing can be built: the metric is left out, saying why.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { agentSpec } from '../scripts/corpus/bug.mjs';
import { cacheRoot, prepare } from '../scripts/corpus/prepare.mjs';
import { baseCommit, envFor, fixcycle, resetTo, RUN_TIMEOUT_MS } from '../scripts/corpus/run-project.mjs';
import { run } from '../scripts/corpus/process.mjs';

const PROJECTS = fileURLToPath(new URL('../test/corpus/projects.json', import.meta.url));
const ROUNDS = Number(process.env.FIXCYCLE_CORPUS_BENCH_ROUNDS || 1);
// FIXCYCLE_CORPUS_ONLY=a,b measures some projects only (a quicker look; the metric is the whole corpus).
const ONLY = (process.env.FIXCYCLE_CORPUS_ONLY ?? '').split(',').filter(Boolean);

const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

export default async function () {
  const entries = JSON.parse(readFileSync(PROJECTS, 'utf8')).filter((e) => ONLY.length === 0 || ONLY.includes(e.name));
  const specDir = join(cacheRoot(), 'agent-specs');
  mkdirSync(specDir, { recursive: true });
  const ratios = [];
  const skipped = [];
  for (const entry of entries) {
    let dir;
    try {
      dir = await prepare(entry);
    } catch (error) {
      skipped.push(`${entry.name}: ${String(error.message).split('\n')[0]}`);
      continue;
    }
    const base = await baseCommit(dir);
    const spec = join(specDir, `${entry.name}.bench.json`);
    writeFileSync(spec, JSON.stringify(agentSpec(entry.bug, null)));
    const bare = [];
    const loop = [];
    for (let round = 0; round < ROUNDS; round++) {
      await resetTo(dir, base);
      const b = await run(entry.test, { cwd: dir, env: envFor(entry), timeoutMs: RUN_TIMEOUT_MS });
      await resetTo(dir, base);
      const f = await fixcycle(dir, entry, spec, `bench-${round}`);
      // Only a run that did what the user's command does counts: both pass, and fixcycle asked no agent.
      if (b.code === 0 && f.processExit === 0 && f.agentCalls.length === 0) {
        bare.push(b.seconds);
        loop.push(f.seconds);
      }
    }
    await resetTo(dir, base);
    if (bare.length === 0) skipped.push(`${entry.name}: the bare command or fixcycle did not pass`);
    else {
      ratios.push(median(loop) / median(bare));
      process.stdout.write(
        `  corpus: ${entry.name} bare ${median(bare).toFixed(2)} s, fixcycle ${median(loop).toFixed(2)} s, ratio ${(median(loop) / median(bare)).toFixed(3)}\n`,
      );
    }
  }
  for (const why of skipped) process.stdout.write(`  corpus: left out ${why}\n`);
  if (ratios.length === 0) return {};
  return {
    corpus_overhead_ratio: median(ratios),
    corpus_overhead_projects: ratios.length,
    corpus_overhead_max_ratio: Math.max(...ratios),
  };
}
