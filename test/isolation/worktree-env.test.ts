import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  addSessionBranch,
  addSessionWorktree,
  sessionWorktreeDir,
} from '../../src/engine/isolation/session-worktree.js';
import { prepareSessionWorktree } from '../../src/engine/isolation/worktree-env.js';
import { git, makeRepo, removeRepos } from '../helpers/repo.js';

afterAll(removeRepos);

function write(root: string, file: string, content: string): void {
  mkdirSync(join(root, file, '..'), { recursive: true });
  writeFileSync(join(root, file), content);
}

async function worktreeOf(repo: string): Promise<string> {
  const dir = sessionWorktreeDir(join(repo, '.git'), 'WFS-test-env');
  await addSessionBranch(repo, 'fixcycle/WFS-test-env', git(repo, 'rev-parse', 'HEAD'));
  await addSessionWorktree(repo, dir, 'fixcycle/WFS-test-env');
  return dir;
}

describe("the session's worktree runs the project as the user's tree does", () => {
  it('links installed dependencies at any depth, shares build caches, copies the ignored files tests read', async () => {
    const repo = makeRepo(null, {
      '.gitignore': 'node_modules/\n.env\ndist/\ntarget/\nfixtures/generated/\n__pycache__/\n',
      'package.json': '{"name":"x","devDependencies":{"left-pad":"*"}}',
      'packages/a/package.json': '{"name":"a"}',
      'crate/Cargo.toml': '[package]\nname = "c"\n',
    });
    write(repo, 'node_modules/left-pad/index.js', 'module.exports = 1;\n');
    write(repo, 'packages/a/node_modules/dep/index.js', 'module.exports = 2;\n');
    write(repo, '.env', 'API_URL=http://127.0.0.1:9\n');
    write(repo, 'dist/index.js', 'export const built = true;\n');
    write(repo, 'fixtures/generated/big.json', '{"n": 1}\n');
    write(repo, 'crate/target/debug/.fingerprint', 'x\n');
    write(repo, 'src/__pycache__/m.cpython-311.pyc', 'x');
    const dir = await worktreeOf(repo);
    const env = await prepareSessionWorktree(repo, dir);

    // node_modules as a copy of hard links (npm reads a linked one as extraneous packages), the same files.
    expect(lstatSync(join(dir, 'node_modules')).isDirectory()).toBe(true);
    expect(statSync(join(dir, 'node_modules/left-pad/index.js')).ino).toBe(
      statSync(join(repo, 'node_modules/left-pad/index.js')).ino,
    );
    expect(statSync(join(dir, 'packages/a/node_modules/dep/index.js')).ino).toBe(
      statSync(join(repo, 'packages/a/node_modules/dep/index.js')).ino,
    );
    expect(realpathSync(join(dir, 'crate/target'))).toBe(realpathSync(join(repo, 'crate/target')));
    expect(env.linked).toEqual(expect.arrayContaining(['node_modules', 'packages/a/node_modules', 'crate/target']));
    // Copies, not links: the loop may rebuild them without touching the user's.
    expect(lstatSync(join(dir, 'dist/index.js')).isFile()).toBe(true);
    expect(readFileSync(join(dir, '.env'), 'utf8')).toContain('API_URL');
    expect(readFileSync(join(dir, 'fixtures/generated/big.json'), 'utf8')).toContain('"n"');
    expect(existsSync(join(dir, 'src/__pycache__'))).toBe(false);
    expect(env.missing).toEqual([]);
    // The links are ignored: the worktree's git status shows nothing of them.
    expect(git(dir, 'status', '--porcelain')).toBe('');
  });

  it("gives npm the user's tree as npm reads it, not links to packages outside the project", async () => {
    const repo = makeRepo(null, {
      '.gitignore': 'node_modules/\n',
      'package.json': '{"name":"x","version":"1.0.0","devDependencies":{"left-pad":"^1.3.0"}}',
    });
    write(repo, 'node_modules/left-pad/package.json', '{"name":"left-pad","version":"1.3.0"}');
    const tree = (cwd: string): unknown => {
      const ls = spawnSync('npm', ['ls', '--all', '--json', '--offline'], { cwd, encoding: 'utf8' });
      return (JSON.parse(ls.stdout) as { dependencies?: unknown }).dependencies;
    };
    const dir = await worktreeOf(repo);
    await prepareSessionWorktree(repo, dir);
    // Linked, npm reads each package as a link out of the project (`resolved: file:../..`): its audit then wants
    // a lockfile, and a `posttest: aud --production` that passes in the user's tree fails in the worktree.
    expect(tree(dir)).toEqual(tree(repo));
  });

  it('sends the imports of an editable Python install to the worktree, and says so', async () => {
    const repo = makeRepo(null, { '.gitignore': '.venv/\n', 'src/pkg/__init__.py': 'X = 1\n' });
    write(repo, '.venv/lib/python3.11/site-packages/__editable__.pkg-0.1.pth', `${join(repo, 'src')}\n`);
    write(repo, '.venv/bin/python', '');
    const dir = await worktreeOf(repo);
    const env = await prepareSessionWorktree(repo, dir);
    expect(env.pythonPath).toEqual([join(dir, 'src')]);
    expect(env.notes.join('\n')).toMatch(/editable Python installs point at your tree/);
  });

  it("clones a checked-out submodule from the user's checkout, with no network", async () => {
    const inner = makeRepo(null, { 'data/case.txt': 'case\n' });
    const repo = makeRepo(null, { 'README.md': 'outer\n' });
    git(repo, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', inner, 'vendor/data');
    git(repo, 'commit', '-qm', 'data as a submodule');
    const dir = await worktreeOf(repo);
    const env = await prepareSessionWorktree(repo, dir);
    expect(readFileSync(join(dir, 'vendor/data/data/case.txt'), 'utf8')).toBe('case\n');
    expect(env.copied).toContain('vendor/data (submodule)');
    expect(git(dir, 'status', '--porcelain')).toBe('');
  });

  it('names what it cannot reproduce past its bounds, offering --in-place', async () => {
    const repo = makeRepo(null, { '.gitignore': 'generated/\n' });
    for (let i = 0; i < 2005; i++) write(repo, `generated/f${i}.txt`, `${i}\n`);
    const dir = await worktreeOf(repo);
    const env = await prepareSessionWorktree(repo, dir);
    expect(env.missing.join('\n')).toMatch(/generated\/f\d+\.txt and the ignored files after it \(past 2000 files/);
  });
});
