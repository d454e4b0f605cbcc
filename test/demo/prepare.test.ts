import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { DemoError, prepareDemo, type DemoProject } from '../../src/demo/prepare.js';

const git = async (repo: string, ...args: string[]) => (await execa('git', args, { cwd: repo })).stdout.trim();

describe('prepareDemo', () => {
  const made: DemoProject[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(made.splice(0).map((demo) => demo.cleanup()));
    await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('copies the demo library into a temp git repository with one clean commit', async () => {
    const demo = await prepareDemo();
    made.push(demo);

    expect(demo.repo.startsWith(tmpdir())).toBe(true);
    expect(existsSync(join(demo.repo, 'src', 'money.js'))).toBe(true);
    expect(JSON.parse(await readFile(join(demo.repo, 'package.json'), 'utf8')).scripts.test).toBe('node --test');
    expect(await git(demo.repo, 'rev-list', '--count', 'HEAD')).toBe('1');
    expect(await git(demo.repo, 'status', '--porcelain')).toBe('');
    expect(await git(demo.repo, 'log', '-1', '--format=%an <%ae>')).toBe('fixcycle demo <demo@fixcycle.invalid>');
    expect(await git(demo.repo, 'ls-files')).toContain('test/paginate.test.js');
  });

  it('returns node --test and the scripted agent as an absolute, shell-free command', async () => {
    const demo = await prepareDemo();
    made.push(demo);

    expect(demo.testCmd).toEqual(['node', '--test']);
    expect(demo.agentCmd[0]).toBe(process.execPath);
    expect(demo.agentCmd[1]).toMatch(/examples[\\/]demo-agent\.mjs$/);
    expect(existsSync(demo.agentCmd[1]!)).toBe(true);
  });

  it('gives every call its own repository and removes it on cleanup', async () => {
    const first = await prepareDemo();
    const second = await prepareDemo();
    made.push(second);

    expect(first.repo).not.toBe(second.repo);
    await first.cleanup();
    expect(existsSync(first.repo)).toBe(false);
    expect(existsSync(second.repo)).toBe(true);
  });

  it('creates the demo in a chosen folder and keeps it after cleanup', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'fixcycle-demo-test-'));
    dirs.push(parent);
    const dir = join(parent, 'my-demo');

    const demo = await prepareDemo({ dir });
    await demo.cleanup();

    expect(demo.repo).toBe(dir);
    expect(await git(dir, 'status', '--porcelain')).toBe('');
    expect(existsSync(join(dir, 'src', 'query.js'))).toBe(true);
  });

  it('refuses a folder that is not empty, naming it and the fix, and leaves it as it was', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fixcycle-demo-test-'));
    dirs.push(dir);
    await writeFile(join(dir, 'notes.txt'), 'mine');

    const attempt = prepareDemo({ dir });
    await expect(attempt).rejects.toBeInstanceOf(DemoError);
    await expect(attempt).rejects.toThrow(`${dir} is not empty: choose a new or empty folder for the demo`);
    expect(await readFile(join(dir, 'notes.txt'), 'utf8')).toBe('mine');
    expect(existsSync(join(dir, '.git'))).toBe(false);
  });
});
