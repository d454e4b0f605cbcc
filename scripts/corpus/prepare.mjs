// Re-creates a corpus project in the cache folder from what CI can reach (npm registry, Debian packages),
// installs it with its own install command, and makes it a git repository whose first commit is the
// unbroken project. A stamp records the entry it was built from, so a changed entry is rebuilt.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run, runOrThrow } from './process.mjs';

const STAMP = '.corpus-stamp';
const INSTALL_TIMEOUT_MS = 15 * 60_000;
// Left out of the project's git repository: what the install and the runs produce.
export const EXCLUDED = [
  'node_modules/',
  'target/',
  '.nyc_output/',
  'coverage/',
  '__pycache__/',
  '.pytest_cache/',
  '.hypothesis/',
  '*.egg-info/',
  STAMP,
];

export function cacheRoot() {
  return process.env.FIXCYCLE_CORPUS_CACHE || join(process.env.HOME || tmpdir(), '.cache', 'fixcycle', 'corpus');
}

export function projectDir(entry) {
  return join(cacheRoot(), 'projects', entry.name.replace(/[^\w.-]+/g, '_'));
}

function stampOf(entry) {
  const { source, install, env } = entry;
  return createHash('sha256').update(JSON.stringify({ source, install, env })).digest('hex').slice(0, 16);
}

/** True when the cached project was built from this very entry and is ready to run. */
export function isPrepared(entry) {
  const stamp = join(projectDir(entry), STAMP);
  return existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === stampOf(entry);
}

/** Builds the project in the cache unless it is there already; returns its folder. */
export async function prepare(entry, log = () => {}) {
  const dir = projectDir(entry);
  if (isPrepared(entry)) return dir;
  await fetchInto(dir, entry.source, log);
  log(`installing: ${entry.install}`);
  await runOrThrow(entry.install, { cwd: dir, env: { ...process.env, ...entry.env }, timeoutMs: INSTALL_TIMEOUT_MS });
  await makeRepository(dir, entry);
  writeFileSync(join(dir, STAMP), stampOf(entry) + '\n');
  return dir;
}

/** An empty `dir` holding the published project of `source` (the generation corpus builds on this too). */
export async function fetchInto(dir, source, log = () => {}) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  log(`fetching ${describeSource(source)}`);
  await fetchSource(source, dir);
}

export function describeSource(source) {
  if (source.npm) return `npm ${source.npm}`;
  if (source.debianSource) return `Debian source ${source.debianSource} ${source.debianVersion}`;
  if (source.debianBinary) return `Debian package ${source.debianBinary} (${source.path})`;
  if (source.repository)
    return `repository ${source.repository} at ${source.commit}${source.path ? ` (folder ${source.path})` : ''}`;
  throw new Error(`unknown corpus source ${JSON.stringify(source)}`);
}

async function fetchSource(source, dir) {
  const scratch = mkdtempSync(join(tmpdir(), 'fixcycle-corpus-fetch-'));
  try {
    if (source.npm) {
      const packed = await runOrThrow(['npm', 'pack', source.npm, '--silent', '--pack-destination', scratch], {
        cwd: scratch,
        timeoutMs: 120_000,
      });
      const tarball = join(scratch, packed.stdout.trim().split('\n').pop());
      await runOrThrow(['tar', 'xzf', tarball, '-C', dir, '--strip-components=1'], {});
    } else if (source.debianSource) {
      await ensureDebianSources();
      // The upstream tarball (.orig) is the published project as released; Debian's own packaging is not needed.
      // apt-get may fail on a secondary component, so its exit code is not trusted: the .orig file is.
      const got = await run(
        ['apt-get', 'source', '--download-only', `${source.debianSource}=${source.debianVersion}`],
        { cwd: scratch, timeoutMs: 180_000 },
      );
      const orig = readdirSync(scratch).find(
        (f) => f.startsWith(`${source.debianSource}_`) && /\.orig\.tar\.\w+$/.test(f),
      );
      if (!orig) {
        throw new Error(
          `apt-get source ${source.debianSource} brought no upstream tarball: add deb-src lines to the apt sources and run apt-get update (${(got.stderr || got.stdout).trim().split('\n').pop()})`,
        );
      }
      await runOrThrow(['tar', 'xf', join(scratch, orig), '-C', dir, '--strip-components=1'], {});
    } else if (source.debianBinary) {
      if (!existsSync(source.path))
        await runOrThrow(['apt-get', 'install', '-y', '-qq', source.debianBinary], { timeoutMs: 600_000 });
      cpSync(source.path, dir, { recursive: true });
    } else if (source.repository) {
      await fromSnapshot(source, dir);
    } else {
      throw new Error(`unknown corpus source ${JSON.stringify(source)}`);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Where git snapshots of public repositories are kept, one bare repository per `owner+name/repo`. */
export function mirrorRoot() {
  return process.env.FIXCYCLE_CORPUS_MIRRORS || '/work/.mirror';
}

/**
 * A project whose published tarball ships no tests (its `files` names only the build): its repository at the
 * commit the entry names, taken from a local git snapshot (the registries reachable here serve no repository).
 */
async function fromSnapshot(source, dir) {
  const gitDir = join(mirrorRoot(), source.repository.replace('/', '+'), 'repo');
  if (!existsSync(gitDir)) {
    throw new Error(
      `no git snapshot of ${source.repository} in ${mirrorRoot()}: fetch the repository's snapshot there (owner+name/repo), or set FIXCYCLE_CORPUS_MIRRORS to the folder that holds it`,
    );
  }
  const has = await run(['git', '--git-dir', gitDir, 'cat-file', '-e', `${source.commit}^{commit}`], {});
  if (has.code !== 0) {
    throw new Error(`the snapshot of ${source.repository} has no commit ${source.commit}: fetch a newer snapshot`);
  }
  // A project kept in a folder of its repository (docutils/ beside the sandbox and the web site) is that folder's
  // tree, as a user who cloned the repository works in it.
  const tree = source.path ? `${source.commit}:${source.path}` : source.commit;
  const kind = source.path ? await run(['git', '--git-dir', gitDir, 'cat-file', '-t', tree], {}) : null;
  if (kind && kind.stdout.trim() !== 'tree') {
    throw new Error(
      `the snapshot of ${source.repository} has no folder ${source.path} at ${source.commit}: correct the entry's source.path`,
    );
  }
  await runOrThrow(`git --git-dir '${gitDir}' archive --format=tar '${tree}' | tar xf - -C '${dir}'`, {});
}

const DEBIAN_SOURCES = '/etc/apt/sources.list.d/debian.sources';
const DEBIAN_SOURCES_SRC = '/etc/apt/sources.list.d/fixcycle-corpus-src.sources';

/**
 * `apt-get source` needs deb-src entries, which Debian's images leave out: as root, adds them beside the
 * image's own `deb` entries (same mirror and suites) and updates the lists once. Otherwise leaves it to the
 * error that names the fix.
 */
async function ensureDebianSources() {
  const known = await run(['apt-cache', 'showsrc', 'dpkg'], { timeoutMs: 60_000 });
  if (known.code === 0 && known.stdout.includes('Package:')) return;
  if (process.getuid?.() !== 0 || !existsSync(DEBIAN_SOURCES) || existsSync(DEBIAN_SOURCES_SRC)) return;
  writeFileSync(DEBIAN_SOURCES_SRC, readFileSync(DEBIAN_SOURCES, 'utf8').replace(/^Types: deb$/gm, 'Types: deb-src'));
  await run(['apt-get', 'update', '-qq'], { timeoutMs: 300_000 });
}

async function makeRepository(dir, entry) {
  rmSync(join(dir, '.git'), { recursive: true, force: true });
  const git = (...args) => runOrThrow(['git', ...args], { cwd: dir });
  await git('init', '-q', '-b', 'main');
  writeFileSync(join(dir, '.git', 'info', 'exclude'), EXCLUDED.join('\n') + '\n');
  // -f: files the project's own .gitignore names (built files shipped in a tarball) are part of the project here.
  await git('add', '-A', '-f', '--', '.', ...EXCLUDED.map((p) => `:(exclude,glob)**/${p.replace(/\/$/, '/**')}`));
  await commit(dir, `corpus: ${entry.name} as published`);
  // As in a clone: a project's own checks may read its remote (remark-validate-links builds links from it).
  if (entry.source.repository)
    await git('remote', 'add', 'origin', `https://github.com/${entry.source.repository}.git`);
}

export async function commit(dir, message) {
  await runOrThrow(
    [
      'git',
      '-c',
      'user.name=fixcycle corpus',
      '-c',
      'user.email=corpus@fixcycle.invalid',
      'commit',
      '-q',
      '--no-verify',
      '-m',
      message,
    ],
    { cwd: dir },
  );
}
