// Re-creates a generation-corpus project in the cache from what CI can reach (npm registry, Debian), installs
// it, and makes it a git repository shaped like the change `fixcycle gen` is for: `main` is the published
// project without the module under test and without the test file chosen for removal; `feature` adds the module
// (its every line is the change). The removed test file's text is kept beside the repository, for the scripted
// generator to write back and for the table to compare with.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { commit, describeSource, EXCLUDED, fetchInto } from '../corpus/prepare.mjs';
import { runOrThrow } from '../corpus/process.mjs';

const STAMP = '.gen-corpus-stamp';
const INSTALL_TIMEOUT_MS = 15 * 60_000;

export function genCacheRoot() {
  return (
    process.env.FIXCYCLE_GEN_CORPUS_CACHE || join(process.env.HOME || tmpdir(), '.cache', 'fixcycle', 'gen-corpus')
  );
}

// `checkout`: the folder the project's own CI puts it in, when its tests read their own path (pkg-errors' stack
// traces expect .../github.com/pkg/errors/, its Travis go_import_path).
export function projectDir(entry) {
  return join(genCacheRoot(), 'projects', entry.name.replace(/[^\w.-]+/g, '_'), entry.checkout ?? '');
}

/** The removed test file as the project published it. */
export function originalPath(entry) {
  return join(genCacheRoot(), 'originals', entry.name.replace(/[^\w.-]+/g, '_'), entry.gen.removed);
}

function stampOf(entry) {
  const { source, install, env, checkout } = entry;
  return createHash('sha256')
    .update(JSON.stringify({ source, install, env, checkout, removed: entry.gen.removed, target: entry.gen.target }))
    .digest('hex')
    .slice(0, 16);
}

export function isPrepared(entry) {
  const stamp = join(projectDir(entry), STAMP);
  return existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === stampOf(entry) && existsSync(originalPath(entry));
}

/** The project's variables over this process's; `$PATH` and `$HOME` in a value are this process's. */
export function envFor(entry) {
  const expand = (v) => v.replace(/\$(PATH|HOME)\b/g, (_, name) => process.env[name] ?? '');
  return { ...process.env, ...Object.fromEntries(Object.entries(entry.env ?? {}).map(([k, v]) => [k, expand(v)])) };
}

/**
 * What a user passes gen and team to say how their tests run, where fixcycle would not find it in the project: a go
 * module says only `go test ./...`, so flags the project's own command needs (pflag's `-vet=off`) are the user's
 * `--test-cmd`. Every other runner's command is read from the project (package.json's scripts, pytest's config).
 */
export function userTestArgs(entry) {
  return entry.runner === 'go' && entry.test !== 'go test ./...' ? ['--test-cmd', entry.test] : [];
}

/** Builds the project in the cache unless it is there already; returns its folder. */
export async function prepare(entry, log = () => {}) {
  const dir = projectDir(entry);
  if (isPrepared(entry)) return dir;
  await fetchInto(dir, entry.source, log);
  for (const file of [entry.gen.removed, entry.gen.target]) {
    if (!existsSync(join(dir, file)))
      throw new Error(`${entry.name}: ${file} is not in ${describeSource(entry.source)}`);
  }
  log(`installing: ${entry.install}`);
  await runOrThrow(entry.install, { cwd: dir, env: envFor(entry), timeoutMs: INSTALL_TIMEOUT_MS });
  const original = readFileSync(join(dir, entry.gen.removed), 'utf8');
  mkdirSync(dirname(originalPath(entry)), { recursive: true });
  writeFileSync(originalPath(entry), original);
  await makeRepository(dir, entry);
  writeFileSync(join(dir, STAMP), stampOf(entry) + '\n');
  return dir;
}

async function makeRepository(dir, entry) {
  rmSync(join(dir, '.git'), { recursive: true, force: true });
  const git = (...args) => runOrThrow(['git', ...args], { cwd: dir });
  await git('init', '-q', '-b', 'main');
  writeFileSync(join(dir, '.git', 'info', 'exclude'), [...EXCLUDED, STAMP, '.fixcycle-gen-corpus/'].join('\n') + '\n');
  const target = join(dir, entry.gen.target);
  const source = readFileSync(target, 'utf8');
  rmSync(join(dir, entry.gen.removed));
  rmSync(target);
  await git('add', '-A', '-f', '--', '.', ...EXCLUDED.map((p) => `:(exclude,glob)**/${p.replace(/\/$/, '/**')}`));
  await commit(dir, `gen-corpus: ${entry.name} as published, without ${entry.gen.target} and ${entry.gen.removed}`);
  await git('switch', '-q', '-c', 'feature');
  writeFileSync(target, source);
  await git('add', '-f', '--', entry.gen.target);
  await commit(dir, `add ${entry.gen.target}`);
  const sha = async (ref) => (await git('rev-parse', ref)).stdout.trim();
  writeFileSync(
    join(dir, '.git', 'gen-corpus.json'),
    JSON.stringify({ main: await sha('main'), feature: await sha('feature') }) + '\n',
  );
}

/** Back to the tip of `feature` as prepared, with nothing of an earlier run left (sessions, worktrees, branches). */
export async function resetProject(dir) {
  const git = (...args) => runOrThrow(['git', ...args], { cwd: dir });
  const { main, feature } = JSON.parse(readFileSync(join(dir, '.git', 'gen-corpus.json'), 'utf8'));
  rmSync(join(dir, '.workflow'), { recursive: true, force: true });
  // fixcycle keeps a new session folder in the git directory, `.workflow` being a link to it.
  rmSync(join(dir, '.git', 'fixcycle', '.workflow'), { recursive: true, force: true });
  // A session that ended awaiting approval keeps its worktree (and its branch checked out there): both go.
  const worktrees = (await git('worktree', 'list', '--porcelain')).stdout
    .split('\n')
    .filter((l) => l.startsWith('worktree '))
    .map((l) => l.slice('worktree '.length))
    .slice(1);
  for (const tree of worktrees) await git('worktree', 'remove', '--force', tree);
  await git('worktree', 'prune');
  await git('checkout', '-q', '-f', 'feature');
  await git('branch', '-q', '-f', 'main', main);
  await git('reset', '-q', '--hard', feature);
  await git('clean', '-q', '-fd');
  const branches = (await git('branch', '--format=%(refname:short)')).stdout
    .split('\n')
    .filter((b) => b && b !== 'main' && b !== 'feature');
  if (branches.length) await git('branch', '-q', '-D', ...branches);
  return feature;
}
