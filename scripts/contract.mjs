// `npm run contract [-- --latest] [cli ...]`: runs the contract suite (test/real-cli/<cli>.contract.test.ts) one
// CLI at a time against the pinned real CLIs (npm run real-clis) or, with --latest, the newest releases
// (npm run real-clis -- --latest), then the stand-in CLI with an unknown retry log format; prints a table
// (contract x CLI: pass/fail and hand-over times) and records each release whose whole suite passed in
// src/engine/agents/adapters/checked-versions.ts, which `fixcycle doctor` reads.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const PACKAGES = {
  claude: '@anthropic-ai/claude-code',
  gemini: '@google/gemini-cli',
  codex: '@openai/codex',
  qwen: '@qwen-code/qwen-code',
  opencode: 'opencode-ai',
};
const CHECKED_FILE = join(root, 'src/engine/agents/adapters/checked-versions.ts');

const args = process.argv.slice(2);
const latest = args.includes('--latest');
const unknown = args.filter((a) => a.startsWith('-') && a !== '--latest');
const clis = args.filter((a) => !a.startsWith('-'));
if (unknown.length || clis.some((c) => !(c in PACKAGES))) {
  console.error(`error: usage: npm run contract -- [--latest] [${Object.keys(PACKAGES).join('|')} ...]`);
  process.exit(2);
}
const selected = clis.length ? clis : Object.keys(PACKAGES);
const cliRoot = latest
  ? process.env.FIXCYCLE_REAL_CLIS_LATEST || join(homedir(), '.cache', 'fixcycle', 'real-clis-latest')
  : process.env.FIXCYCLE_REAL_CLIS || join(homedir(), '.cache', 'fixcycle', 'real-clis');

function installedVersion(cli) {
  const manifest = join(cliRoot, 'node_modules', PACKAGES[cli], 'package.json');
  return existsSync(manifest) ? JSON.parse(readFileSync(manifest, 'utf8')).version : undefined;
}

const versions = Object.fromEntries(selected.map((cli) => [cli, installedVersion(cli)]));
const missing = selected.filter((cli) => !versions[cli]);
if (missing.length) {
  console.error(
    `error: ${missing.join(', ')} not installed in ${cliRoot}: run \`npm run real-clis${latest ? ' -- --latest' : ''}\` first`,
  );
  process.exit(1);
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const work = mkdtempSync(join(tmpdir(), 'fixcycle-contract-'));
const timesFile = join(work, 'hand-over.jsonl');
writeFileSync(timesFile, '');
const startLoad = load();

// Calls of one CLI at once: each real CLI takes a core to start, and hand-over times are what is measured.
const concurrency = process.env.FIXCYCLE_CONTRACT_CONCURRENCY || '2';

/** Runs one test file with vitest; its per-test results. */
function runFile(file, name) {
  const out = join(work, `${name}.json`);
  spawnSync(
    'npx',
    [
      'vitest',
      'run',
      file,
      `--maxConcurrency=${concurrency}`,
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${out}`,
    ],
    {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, FIXCYCLE_REAL_CLIS: cliRoot, FIXCYCLE_CONTRACT_TIMES: timesFile },
    },
  );
  if (!existsSync(out)) return [];
  return JSON.parse(readFileSync(out, 'utf8')).testResults.flatMap((f) =>
    f.assertionResults.map((t) => ({ title: t.title, status: t.status, ms: t.duration ?? 0 })),
  );
}

const results = {};
for (const cli of selected) {
  console.log(`\n== ${cli} ${versions[cli]} (${cliRoot}), load ${load()}`);
  results[cli] = runFile(`test/real-cli/${cli}.contract.test.ts`, cli);
}
console.log(`\n== a stand-in CLI with an unknown retry log format, load ${load()}`);
const standIn = runFile('test/real-cli/unknown-retry-format.test.ts', 'unknown-retry-format');

const handOvers = readFileSync(timesFile, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l));
const short = (title) =>
  title
    .replace(/^'([^']*)'/, '$1')
    .replace(/ is '([^']*)'/, ' is $1')
    .replace(/ and hands over within 60 s$/, '');
const handOver = (cli, title) =>
  handOvers.findLast((h) => h.cli === cli && (title.startsWith(`'${h.contract}'`) || title.startsWith(h.contract)));
const cell = (cli, test) => {
  if (!test) return '';
  if (test.status === 'skipped' || test.status === 'pending' || test.status === 'todo') return 'skip';
  const mark = test.status === 'passed' ? 'pass' : 'FAIL';
  const h = handOver(cli, test.title);
  return h ? `${mark} ${(h.ms / 1000).toFixed(1)} s` : mark;
};

const titles = [...new Set(selected.flatMap((cli) => results[cli].map((t) => t.title)))];
const rows = [
  ['contract (hand-over time)', ...selected.map((cli) => `${cli} ${versions[cli]}`)],
  ...titles.map((title) => [
    short(title),
    ...selected.map((cli) =>
      cell(
        cli,
        results[cli].find((t) => t.title === title),
      ),
    ),
  ]),
];
const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
const line = (r) => `| ${r.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
console.log(
  `\n${latest ? 'Newest releases' : 'Pinned releases'} (${cliRoot}); load at start ${startLoad}, at end ${load()}\n`,
);
console.log(line(rows[0]));
console.log(line(widths.map((w) => '-'.repeat(w))));
for (const r of rows.slice(1)) console.log(line(r));

const standInFailed = standIn.filter((t) => t.status === 'failed');
const slowest = Math.max(0, ...standIn.map((t) => t.ms)) / 1000;
console.log(
  `\nstand-in CLI with an unknown retry log format (every adapter, analyze and fix): ${standIn.length - standInFailed.length}/${standIn.length} passed, slowest hand-over ${slowest.toFixed(1)} s`,
);

// A release goes on the checked list once its whole suite passed (a missing CLI skips everything: not checked).
const passedWhole = selected.filter(
  (cli) => results[cli].some((t) => t.status === 'passed') && !results[cli].some((t) => t.status === 'failed'),
);
if (passedWhole.length) {
  const text = readFileSync(CHECKED_FILE, 'utf8');
  const start = text.indexOf('{');
  // The file is ours and laid out by prettier: one `cli: ['version', ...],` line a CLI.
  const checked = Object.fromEntries(
    [...text.slice(start).matchAll(/^\s*(\w+): \[(.*)\],?$/gm)].map(([, cli, list]) => [
      cli,
      [...list.matchAll(/'([^']+)'/g)].map((m) => m[1]),
    ]),
  );
  const order = (a, b) => a.localeCompare(b, 'en', { numeric: true });
  for (const cli of passedWhole) checked[cli] = [...new Set([...(checked[cli] ?? []), versions[cli]])].sort(order);
  const entries = Object.entries(checked).map(
    ([cli, list]) => `  ${cli}: [${list.map((version) => `'${version}'`).join(', ')}],`,
  );
  writeFileSync(CHECKED_FILE, `${text.slice(0, start)}{\n${entries.join('\n')}\n};\n`);
  console.log(
    `recorded as checked: ${passedWhole.map((cli) => `${cli} ${versions[cli]}`).join(', ')} (src/engine/agents/adapters/checked-versions.ts)`,
  );
}
rmSync(work, { recursive: true, force: true });
const failed = selected.filter((cli) => results[cli].some((t) => t.status === 'failed') || results[cli].length === 0);
if (failed.length || standInFailed.length) {
  console.log(`failed: ${[...failed, ...(standInFailed.length ? ['the unknown retry format'] : [])].join(', ')}`);
  process.exit(1);
}
