// Runs every bench/*.bench.mjs in turn and writes bench/results.json (metric name -> number).
// Each bench module's default export is an async function returning { metric: number, ... }.
// Benches import the built code from dist/ (npm run bench builds first).
// The corpus benches (corpus-*.bench.mjs: fixcycle on every published project of test/corpus, 30+ minutes)
// run only with --corpus (`npm run bench:corpus`), so a plain `npm run bench` stays a few minutes; each run
// keeps the figures it did not measure.
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const corpus = args.includes('--corpus');
const only = args.filter((arg) => arg !== '--corpus');
const isCorpus = (f) => f.startsWith('corpus-');
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.mjs') && isCorpus(f) === corpus)
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

// A run of some benches (`node bench/run.mjs parse`, or the corpus ones) updates their figures and keeps the others.
const resultsFile = join(here, 'results.json');
const results = existsSync(resultsFile) ? JSON.parse(readFileSync(resultsFile, 'utf8')) : {};
for (const file of files) {
  const started = Date.now();
  process.stdout.write(`${file}\n`);
  const mod = await import(pathToFileURL(join(here, file)).href);
  const figures = await mod.default();
  for (const [name, value] of Object.entries(figures)) {
    results[name] = value;
    process.stdout.write(`  ${name.padEnd(28)} ${typeof value === 'number' ? +value.toFixed(4) : value}\n`);
  }
  process.stdout.write(`  (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
}
writeFileSync(resultsFile, JSON.stringify(results, null, 2) + '\n');
process.stdout.write(`wrote bench/results.json (${Object.keys(results).length} metrics)\n`);
