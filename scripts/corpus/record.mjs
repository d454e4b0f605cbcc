// `npm run corpus -- --record --only NAME`: runs the bare test command on the unbroken and the broken project
// and prints each run's tail and the summary counts read from it, for a person to check and write into
// projects.json as `expected`. The summaries read are also kept in <cache>/recorded.json to copy from once
// checked by eye; projects.json is never written by a script.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyBug } from './bug.mjs';
import { cacheRoot, prepare } from './prepare.mjs';
import { run, runOrThrow } from './process.mjs';
import { RUN_TIMEOUT_MS } from './run-project.mjs';
import { readSummary, summaryCommand } from './summary.mjs';

export async function record(entry, log) {
  const dir = await prepare(entry, log);
  const env = { ...process.env, ...(entry.env ?? {}) };
  const found = {};
  const show = async (label) => {
    const result = await run(summaryCommand(entry), { cwd: dir, env, timeoutMs: RUN_TIMEOUT_MS });
    const text = result.stdout + result.stderr;
    const tail = text
      .trim()
      .split('\n')
      .slice(-12)
      .map((l) => `    | ${l.slice(0, 160)}`)
      .join('\n');
    found[label] = readSummary(entry.runner, text);
    process.stdout.write(
      `  ${label}: exit ${result.code} in ${result.seconds.toFixed(1)}s, summary ${JSON.stringify(readSummary(entry.runner, text))}\n${tail}\n`,
    );
  };
  const clean = async () => {
    await runOrThrow(['git', 'checkout', '-q', '-f', '--', '.'], { cwd: dir });
    await runOrThrow(['git', 'clean', '-q', '-fd'], { cwd: dir });
  };
  process.stdout.write(`${entry.name} [${entry.family}] ${summaryCommand(entry)}\n`);
  await clean();
  await show('unbroken');
  applyBug(dir, entry.bug);
  try {
    await show('broken');
  } finally {
    await clean();
  }
  const file = join(cacheRoot(), 'recorded.json');
  const kept = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  kept[entry.name] = { unbroken: found.unbroken, broken: found.broken };
  writeFileSync(file, JSON.stringify(kept, null, 2) + '\n');
}
