// The loop's own worktree on a generated 10,000-file repository with installed dependencies, an ignored .env and
// a built dist/, and uncommitted work of the user's (edits and new files).
//   worktree_setup_s  from the user's tree to the session's worktree ready to run tests: the snapshot of their
//                     uncommitted changes, `git worktree add`, the dependencies linked and the ignored files copied
//                     (isolateNewSession, as `fixcycle run` calls it)
//   handback_s        bringing two fix commits back on the slow path: the user committed meanwhile (cherry-pick)
//                     and has uncommitted changes in a fixed file (merged three-way)
// Each figure is the median of RUNS runs.
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const dist = (path) => pathToFileURL(join(here, '..', 'dist', path)).href;
const RUNS = 3;
const FOLDERS = 100;
const FILES_PER_FOLDER = 100;

const git = (cwd, ...args) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
const write = (dir, path, text) => {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), text);
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function generate() {
  const dir = mkdtempSync(join(tmpdir(), 'fixcycle-bench-worktree-'));
  write(dir, 'package.json', JSON.stringify({ name: 'generated', private: true, devDependencies: { dep: '*' } }));
  write(dir, '.gitignore', 'node_modules/\n.env\ndist/\n');
  for (let f = 0; f < FOLDERS; f++)
    for (let m = 0; m < FILES_PER_FOLDER; m++)
      write(dir, `src/f${f}/m${m}.js`, `export const v${f}_${m} = ${f * m};\nexport const w = ${m};\n`);
  for (let d = 0; d < 50; d++) write(dir, `node_modules/dep${d}/index.js`, 'module.exports = 1;\n');
  write(dir, '.env', 'API_URL=http://127.0.0.1:9\n');
  for (let b = 0; b < 20; b++) write(dir, `dist/b${b}.js`, 'export const built = true;\n');
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.name', 'bench');
  git(dir, 'config', 'user.email', 'bench@fixcycle.invalid');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'initial');
  // The user's work in progress.
  for (let f = 0; f < 5; f++) appendFileSync(join(dir, `src/f${f}/m1.js`), `export const wip${f} = true;\n`);
  for (let n = 0; n < 5; n++) write(dir, `src/new/n${n}.js`, `export const n = ${n};\n`);
  return dir;
}

export default async function bench() {
  const { Repo } = await import(dist('engine/git.js'));
  const { isolateNewSession } = await import(dist('engine/isolation/session-isolation.js'));
  const { removeSessionWorktree } = await import(dist('engine/isolation/session-worktree.js'));
  const { handBack } = await import(dist('engine/isolation/handback.js'));
  const dir = generate();
  try {
    const setups = [];
    const handbacks = [];
    for (let run = 0; run < RUNS; run++) {
      const repo = await Repo.open(dir);
      const id = `WFS-test-bench-${run}`;
      const started = performance.now();
      const { record } = await isolateNewSession(repo, id);
      setups.push((performance.now() - started) / 1000);
      // Two fixes in the session's worktree, a commit of the user's meanwhile, an uncommitted change in a fixed file.
      for (const n of [20, 30]) {
        appendFileSync(join(record.dir, `src/f${n}/m1.js`), `export const fix${n} = true;\n`);
        git(record.dir, 'commit', '-qam', `test-cycle: iteration ${n}`);
      }
      write(dir, `src/f9/m${run}.js`, `export const mine${run} = true;\n`);
      git(dir, 'add', `src/f9/m${run}.js`);
      git(dir, 'commit', '-qm', `the user's own commit ${run}`);
      writeFileSync(
        join(dir, 'src/f2/m1.js'),
        `export const saved${run} = 1;\n` + git(dir, 'show', 'HEAD:src/f2/m1.js') + '\n',
      );
      const before = performance.now();
      const result = await handBack(repo.root, repo.gitDir, record, { apply: true });
      handbacks.push((performance.now() - before) / 1000);
      if (result.status !== 'applied') throw new Error(`hand-back did not apply: ${JSON.stringify(result)}`);
      await removeSessionWorktree(repo.root, record.dir, record.branch, false);
    }
    return { worktree_setup_s: median(setups), handback_s: median(handbacks) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
