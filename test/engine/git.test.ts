import { existsSync, lstatSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Repo } from '../../src/engine/git.js';
import { git, makeRepo, removeRepos } from '../helpers/repo.js';

afterAll(removeRepos);

describe('Repo', () => {
  it('commits exactly the given files, leaving the rest of the index and tree alone', async () => {
    const dir = makeRepo(null, { 'a.txt': 'a\n', 'b.txt': 'b\n' });
    const repo = await Repo.open(dir);
    writeFileSync(join(dir, 'a.txt'), 'a2\n');
    writeFileSync(join(dir, 'b.txt'), 'b2\n');
    git(dir, 'add', 'b.txt');
    writeFileSync(join(dir, 'new.txt'), 'new\n');
    const sha = await repo.commitFiles(['a.txt', 'new.txt'], 'fix');
    expect(sha).toMatch(/^[0-9a-f]{40}$/);
    expect(git(dir, 'show', '--name-only', '--format=', 'HEAD').split('\n').sort()).toEqual(['a.txt', 'new.txt']);
    expect(await repo.changedFiles()).toEqual(['b.txt']);
  });

  it('reads HEAD, tracked changes and untracked files from one git status, a staged rename included', async () => {
    const dir = makeRepo(null, { 'a.txt': 'a\n', 'old name.txt': 'o\n' });
    const repo = await Repo.open(dir);
    writeFileSync(join(dir, 'left by tests.log'), 'x\n');
    await import('node:fs').then((fs) => fs.mkdirSync(join(dir, 'out')));
    writeFileSync(join(dir, 'out', 'report.xml'), '<x/>\n');
    expect(await repo.workTreeStatus()).toEqual({
      head: git(dir, 'rev-parse', 'HEAD'),
      trackedChanges: false,
      untracked: ['left by tests.log', 'out/report.xml'],
    });
    git(dir, 'mv', 'old name.txt', 'new name.txt');
    expect(await repo.workTreeStatus()).toEqual({
      head: git(dir, 'rev-parse', 'HEAD'),
      trackedChanges: true,
      untracked: ['left by tests.log', 'out/report.xml'],
    });
  });

  it('commits a deletion', async () => {
    const dir = makeRepo(null, { 'a.txt': 'a\n', 'keep.txt': 'k\n' });
    const repo = await Repo.open(dir);
    await import('node:fs').then((fs) => fs.rmSync(join(dir, 'a.txt')));
    await repo.commitFiles(['a.txt'], 'remove a');
    expect(git(dir, 'ls-files')).toBe('keep.txt');
  });

  it('reverts one commit exactly, even when a later commit exists', async () => {
    const dir = makeRepo(null, { 'a.txt': '1\n', 'b.txt': '1\n' });
    const repo = await Repo.open(dir);
    writeFileSync(join(dir, 'a.txt'), '2\n');
    const first = (await repo.commitFiles(['a.txt'], 'first'))!;
    writeFileSync(join(dir, 'b.txt'), '2\n');
    await repo.commitFiles(['b.txt'], 'second');
    await repo.revertCommit(first, 'rollback first');
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('1\n');
    expect(readFileSync(join(dir, 'b.txt'), 'utf8')).toBe('2\n');
    expect(git(dir, 'log', '-1', '--format=%s')).toBe('rollback first');
  });

  it('restores changed files and removes only the files a fix created', async () => {
    const dir = makeRepo(null, { 'a.txt': '1\n' });
    const repo = await Repo.open(dir);
    writeFileSync(join(dir, 'a.txt'), 'changed\n');
    writeFileSync(join(dir, 'created.txt'), 'x\n');
    writeFileSync(join(dir, 'other-untracked.txt'), 'mine\n');
    await repo.restoreFiles(['a.txt', 'created.txt']);
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('1\n');
    expect(existsSync(join(dir, 'created.txt'))).toBe(false);
    expect(existsSync(join(dir, 'other-untracked.txt'))).toBe(true);
  });

  it('diffs tracked and new files without touching the index', async () => {
    const dir = makeRepo(null, { 'a.txt': '1\n' });
    const repo = await Repo.open(dir);
    writeFileSync(join(dir, 'a.txt'), '2\n');
    writeFileSync(join(dir, 'n.txt'), 'new\n');
    const diff = await repo.diff(['a.txt', 'n.txt']);
    expect(diff).toMatch(/-1\n\+2/);
    expect(diff).toMatch(/\+\+\+ b\/n\.txt\n@@ -0,0 \+1 @@\n\+new/);
    expect(git(dir, 'diff', '--cached', '--name-only')).toBe('');
  });

  it('explains a repository without commits and a detached HEAD', async () => {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const empty = mkdtempSync(join(tmpdir(), 'fixcycle-empty-'));
    git(empty, 'init', '-q');
    await expect(Repo.open(empty)).rejects.toThrow(/no commits yet: commit your code first/);
    const dir = makeRepo(null, { 'a.txt': '1\n' });
    git(dir, 'checkout', '-q', '--detach');
    await expect(Repo.open(dir)).rejects.toThrow(/HEAD is detached: check out a branch first/);
  });

  it('keeps the session folder out of git through .git/info/exclude, once', async () => {
    const dir = makeRepo(null, { 'a.txt': '1\n' });
    const repo = await Repo.open(dir);
    await repo.excludeSessionFolder({ link: true });
    await repo.excludeSessionFolder({ link: true });
    const exclude = readFileSync(join(dir, '.git/info/exclude'), 'utf8');
    // No trailing slash: the line matches the session folder's link as well as a plain folder.
    expect(exclude.match(/^\/\.workflow$/gm)).toHaveLength(1);
    expect(lstatSync(join(dir, '.workflow')).isSymbolicLink()).toBe(true);
    expect(realpathSync(join(dir, '.workflow'))).toBe(realpathSync(join(dir, '.git/fixcycle/.workflow')));
    expect(git(dir, 'status', '--porcelain')).toBe('');
  });
});
