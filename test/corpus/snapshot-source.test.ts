// The corpus's `repository` source: a project re-created from a git snapshot of its public repository at a
// named commit (for projects whose tarball ships no tests), with the origin remote a clone has.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

interface Source {
  repository: string;
  commit: string;
  path?: string;
}
interface PrepareModule {
  fetchInto(dir: string, source: Source): Promise<void>;
  prepare(entry: { name: string; source: Source; install: string }): Promise<string>;
}

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'fixcycle-corpus-snapshot-'));
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t.invalid', ...args], { cwd, encoding: 'utf8' }).trim();

let prepareModule: PrepareModule;
let first: string;
let second: string;
const saved = { mirrors: process.env.FIXCYCLE_CORPUS_MIRRORS, cache: process.env.FIXCYCLE_CORPUS_CACHE };

beforeAll(async () => {
  // A project with two commits, kept as the search tool's fetch keeps one: a bare repository at owner+name/repo.
  const work = join(root, 'work');
  mkdirSync(work);
  git(work, 'init', '-q', '-b', 'main');
  writeFileSync(join(work, 'index.js'), 'module.exports = 1\n');
  git(work, 'add', '-A');
  git(work, 'commit', '-q', '-m', 'one');
  first = git(work, 'rev-parse', 'HEAD');
  writeFileSync(join(work, 'index.js'), 'module.exports = 2\n');
  mkdirSync(join(work, 'pkg'));
  writeFileSync(join(work, 'pkg', 'lib.js'), 'module.exports = 3\n');
  git(work, 'add', '-A');
  git(work, 'commit', '-q', '-m', 'two');
  second = git(work, 'rev-parse', 'HEAD');
  mkdirSync(join(root, 'mirrors', 'someone+thing'), { recursive: true });
  git(root, 'clone', '-q', '--bare', work, join(root, 'mirrors', 'someone+thing', 'repo'));
  process.env.FIXCYCLE_CORPUS_MIRRORS = join(root, 'mirrors');
  process.env.FIXCYCLE_CORPUS_CACHE = join(root, 'cache');
  prepareModule = (await import(pathToFileURL(here('../../scripts/corpus/prepare.mjs')).href)) as PrepareModule;
});

afterAll(() => {
  for (const [key, value] of [
    ['FIXCYCLE_CORPUS_MIRRORS', saved.mirrors],
    ['FIXCYCLE_CORPUS_CACHE', saved.cache],
  ] as const) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  rmSync(root, { recursive: true, force: true });
});

describe('a corpus project from a repository snapshot', () => {
  it('is the tree of the commit the entry names, not the snapshot’s newest', async () => {
    const dir = join(root, 'fetched');
    await prepareModule.fetchInto(dir, { repository: 'someone/thing', commit: first });
    expect(readFileSync(join(dir, 'index.js'), 'utf8')).toBe('module.exports = 1\n');
    expect(existsSync(join(dir, '.git'))).toBe(false);
  });

  it('becomes a repository whose first commit is that tree, with the remote origin a clone has', async () => {
    const dir = await prepareModule.prepare({
      name: 'thing',
      source: { repository: 'someone/thing', commit: second },
      install: 'true',
    });
    expect(readFileSync(join(dir, 'index.js'), 'utf8')).toBe('module.exports = 2\n');
    expect(git(dir, 'remote', 'get-url', 'origin')).toMatch(/someone\/thing\.git$/);
    expect(git(dir, 'status', '--porcelain')).toBe('');
  });

  it('is the tree of the folder the entry names, for a project kept in a folder of its repository', async () => {
    const dir = join(root, 'folder');
    await prepareModule.fetchInto(dir, { repository: 'someone/thing', commit: second, path: 'pkg' });
    expect(readFileSync(join(dir, 'lib.js'), 'utf8')).toBe('module.exports = 3\n');
    expect(existsSync(join(dir, 'index.js'))).toBe(false);
    await expect(
      prepareModule.fetchInto(join(root, 'no-folder'), { repository: 'someone/thing', commit: first, path: 'pkg' }),
    ).rejects.toThrow(/has no folder pkg at .*correct the entry's source\.path/);
  });

  it('says what to fetch when the snapshot or the commit is missing', async () => {
    await expect(
      prepareModule.fetchInto(join(root, 'none'), { repository: 'nobody/nothing', commit: first }),
    ).rejects.toThrow(/no git snapshot of nobody\/nothing in .*: fetch the repository's snapshot there/);
    await expect(
      prepareModule.fetchInto(join(root, 'old'), { repository: 'someone/thing', commit: 'f'.repeat(40) }),
    ).rejects.toThrow(/the snapshot of someone\/thing has no commit f{40}: fetch a newer snapshot/);
  });
});
