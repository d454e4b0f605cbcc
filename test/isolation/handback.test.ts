import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { handBack } from '../../src/engine/isolation/handback.js';
import { snapshotUserState } from '../../src/engine/isolation/snapshot.js';
import {
  addSessionBranch,
  addSessionWorktree,
  sessionWorktreeDir,
} from '../../src/engine/isolation/session-worktree.js';
import type { SessionWorktree } from '../../src/engine/isolation/types.js';
import { git, makeRepo, removeRepos } from '../helpers/repo.js';

afterAll(removeRepos);

const TEXT = ['export function greet(name) {', "  return 'hi ' + name;", '}', '', 'export const x = 1;', ''].join('\n');
const FIXED = TEXT.replace("'hi '", "'hello '");

/** A repository with a session worktree started from its current state, as the loop makes it. */
async function session(repo: string, id = 'WFS-test-hb'): Promise<SessionWorktree> {
  const gitDir = join(repo, '.git');
  const snap = await snapshotUserState(repo, gitDir, 'refs/heads/main', 'fixcycle: snapshot');
  const dir = sessionWorktreeDir(gitDir, id);
  const branch = `fixcycle/${id}`;
  await addSessionBranch(repo, branch, snap.snapshot);
  await addSessionWorktree(repo, dir, branch);
  return { dir, branch, user_branch: 'refs/heads/main', base: snap.base, snapshot: snap.snapshot };
}

/** The agent's fix, committed in the session's worktree as the loop commits it. */
function fixInWorktree(
  record: SessionWorktree,
  file = 'src/text.js',
  content = FIXED,
  message = 'test-cycle: iteration 1',
): void {
  writeFileSync(join(record.dir, file), content);
  git(record.dir, 'add', '-A');
  git(record.dir, 'commit', '-q', '-m', message);
}

const read = (repo: string, file = 'src/text.js') => readFileSync(join(repo, file), 'utf8');

describe('the hand-back of a session run in its own worktree', () => {
  it('fast-forwards the branch that has not moved and updates the fixed file', async () => {
    const repo = makeRepo(null, { 'src/text.js': TEXT });
    const record = await session(repo);
    fixInWorktree(record);
    const result = await handBack(repo, join(repo, '.git'), record, { apply: true });
    expect(result).toMatchObject({ status: 'applied', how: 'fast-forward' });
    expect(git(repo, 'rev-parse', 'main')).toBe(git(repo, 'rev-parse', record.branch));
    expect(read(repo)).toBe(FIXED);
    expect(git(repo, 'status', '--porcelain')).toBe('');
  });

  it('cherry-picks onto commits the user made meanwhile, which stay as they are', async () => {
    const repo = makeRepo(null, { 'src/text.js': TEXT, 'README.md': 'readme\n' });
    const record = await session(repo);
    fixInWorktree(record);
    writeFileSync(join(repo, 'README.md'), 'readme, edited\n');
    git(repo, 'commit', '-qam', 'my own commit');
    const mine = git(repo, 'rev-parse', 'HEAD');
    const result = await handBack(repo, join(repo, '.git'), record, { apply: true });
    expect(result).toMatchObject({ status: 'applied', how: 'cherry-pick' });
    expect(git(repo, 'log', '--format=%s', '-3').split('\n')).toEqual([
      'test-cycle: iteration 1',
      'my own commit',
      'initial',
    ]);
    expect(git(repo, 'rev-parse', 'HEAD~1')).toBe(mine);
    expect(read(repo)).toBe(FIXED);
    expect(read(repo, 'README.md')).toBe('readme, edited\n');
    expect(git(repo, 'status', '--porcelain')).toBe('');
  });

  it("merges the fix three-way into a file the user has uncommitted changes in, and commits none of the user's lines", async () => {
    const repo = makeRepo(null, { 'src/text.js': TEXT });
    const record = await session(repo);
    fixInWorktree(record);
    const saved = TEXT.replace(
      'export const x = 1;',
      'export const x = 1;\nexport const mine = 2; // saved while the loop ran',
    );
    writeFileSync(join(repo, 'src/text.js'), saved);
    const result = await handBack(repo, join(repo, '.git'), record, { apply: true });
    expect(result).toMatchObject({ status: 'applied', merged: ['src/text.js'] });
    expect(read(repo)).toContain("'hello '");
    expect(read(repo)).toContain('export const mine = 2;');
    expect(git(repo, 'show', 'HEAD:src/text.js')).toBe(FIXED.trimEnd());
    // The user's line is still theirs: uncommitted, and only it.
    expect(git(repo, 'diff', 'HEAD', '--', 'src/text.js')).toMatch(/^\+export const mine = 2;/m);
    expect(git(repo, 'diff', 'HEAD', '--', 'src/text.js')).not.toMatch(/hello|hi '/);
  });

  it("keeps the user's version on a conflict, leaves the fixes on the session's branch and names the command", async () => {
    const repo = makeRepo(null, { 'src/text.js': TEXT });
    const record = await session(repo);
    fixInWorktree(record);
    const saved = TEXT.replace("'hi '", "'hey '");
    writeFileSync(join(repo, 'src/text.js'), saved);
    const before = git(repo, 'rev-parse', 'main');
    const result = await handBack(repo, join(repo, '.git'), record, { apply: true });
    expect(result.status).toBe('conflict');
    expect(result.reason).toMatch(/src\/text\.js: your version was kept/);
    expect(result.command).toBe(`git cherry-pick ${record.snapshot.slice(0, 12)}..${record.branch}`);
    expect(read(repo)).toBe(saved);
    expect(git(repo, 'rev-parse', 'main')).toBe(before);
    expect(git(repo, 'log', '--format=%s', '-1', record.branch)).toBe('test-cycle: iteration 1');
  });

  it('brings only the fix when the session started from uncommitted changes, which stay uncommitted', async () => {
    const repo = makeRepo(null, { 'src/text.js': TEXT });
    const wip = TEXT.replace('export const x = 1;', 'export const x = 1;\nexport const wip = 3;');
    writeFileSync(join(repo, 'src/text.js'), wip);
    writeFileSync(join(repo, 'src/new.js'), 'export const brandNew = true;\n');
    const record = await session(repo);
    expect(record.snapshot).not.toBe(record.base);
    // The worktree starts from what the user sees, untracked file included; their index is untouched.
    expect(readFileSync(join(record.dir, 'src/new.js'), 'utf8')).toContain('brandNew');
    expect(git(repo, 'status', '--porcelain')).toBe(' M src/text.js\n?? src/new.js');
    fixInWorktree(record, 'src/text.js', wip.replace("'hi '", "'hello '"));
    const result = await handBack(repo, join(repo, '.git'), record, { apply: true });
    expect(result).toMatchObject({ status: 'applied', how: 'cherry-pick', merged: ['src/text.js'] });
    expect(git(repo, 'show', 'HEAD:src/text.js')).toBe(FIXED.trimEnd());
    expect(git(repo, 'log', '--format=%s', '-2').split('\n')).toEqual(['test-cycle: iteration 1', 'initial']);
    expect(read(repo)).toBe(wip.replace("'hi '", "'hello '"));
    expect(git(repo, 'status', '--porcelain')).toBe(' M src/text.js\n?? src/new.js');
  });

  it('leaves the fixes on the branch with --no-apply, and when the user switched branches', async () => {
    const repo = makeRepo(null, { 'src/text.js': TEXT });
    const record = await session(repo);
    fixInWorktree(record);
    const kept = await handBack(repo, join(repo, '.git'), record, { apply: false });
    expect(kept).toMatchObject({ status: 'waiting', command: expect.stringContaining('git cherry-pick') });
    git(repo, 'switch', '-q', '-c', 'other');
    const switched = await handBack(repo, join(repo, '.git'), record, { apply: true });
    expect(switched.status).toBe('waiting');
    expect(switched.reason).toMatch(
      /you switched to other while the loop ran \(it started on main\): nothing of yours/,
    );
    expect(switched.command).toBe(
      `git switch main && git cherry-pick ${record.snapshot.slice(0, 12)}..${record.branch}`,
    );
    expect(read(repo)).toBe(TEXT);
    expect(git(repo, 'rev-parse', 'main')).toBe(record.base);
  });

  it('hands back a file the fix creates and one it deletes', async () => {
    const repo = makeRepo(null, { 'src/text.js': TEXT, 'src/old.js': 'old\n' });
    const record = await session(repo);
    writeFileSync(join(record.dir, 'src/added.js'), 'added\n');
    git(record.dir, 'rm', '-q', 'src/old.js');
    fixInWorktree(record);
    writeFileSync(join(repo, 'README.md'), 'untracked of mine\n');
    const result = await handBack(repo, join(repo, '.git'), record, { apply: true });
    expect(result.status).toBe('applied');
    expect(read(repo, 'src/added.js')).toBe('added\n');
    expect(existsSync(join(repo, 'src/old.js'))).toBe(false);
    expect(git(repo, 'status', '--porcelain')).toBe('?? README.md');
  });

  it('finishes at the next start a hand-back stopped after the branch took the fixes, from its journal', async () => {
    const repo = makeRepo(null, { 'src/text.js': TEXT });
    const record = await session(repo);
    writeFileSync(join(record.dir, 'src/new.js'), 'export const made = 1;\n');
    fixInWorktree(record);
    // Something in the way of a fixed file stops the hand-back after it moved the branch (as kill -9 would).
    mkdirSync(join(repo, 'src/new.js/inside'), { recursive: true });
    const journal = join(repo, '.git', 'handback-journal.json');
    await expect(handBack(repo, join(repo, '.git'), record, { apply: true, journal })).rejects.toThrow();
    expect(git(repo, 'rev-parse', 'main')).toBe(git(repo, 'rev-parse', record.branch));
    expect(read(repo)).toBe(TEXT);
    expect(existsSync(journal)).toBe(true);
    rmSync(join(repo, 'src/new.js'), { recursive: true });
    const result = await handBack(repo, join(repo, '.git'), record, { apply: true, journal });
    expect(result).toMatchObject({ status: 'applied', how: 'fast-forward' });
    expect(result.reason).toMatch(/finished a hand-back that was stopped/);
    expect(read(repo)).toBe(FIXED);
    expect(read(repo, 'src/new.js')).toBe('export const made = 1;\n');
    expect(git(repo, 'status', '--porcelain')).toBe('');
    // The journal stays until the session records the hand-back: a stop before that finishes it again, harmlessly.
    expect(existsSync(journal)).toBe(true);
    writeFileSync(join(repo, 'src/text.js'), FIXED + '// saved by the user\n');
    expect(await handBack(repo, join(repo, '.git'), record, { apply: true, journal })).toMatchObject({
      status: 'applied',
    });
    expect(read(repo)).toBe(FIXED + '// saved by the user\n');
    expect(git(repo, 'rev-parse', 'main')).toBe(git(repo, 'rev-parse', record.branch));
  });

  it('starts a hand-back over when it stopped before the branch moved, and keeps what the user saved since', async () => {
    const repo = makeRepo(null, { 'src/text.js': TEXT, 'src/other.js': 'other\n' });
    const record = await session(repo);
    writeFileSync(join(record.dir, 'src/other.js'), 'other, fixed\n');
    fixInWorktree(record);
    const journal = join(repo, '.git', 'handback-journal.json');
    // A journal whose tip the branch never took: the stopped hand-back moved nothing.
    const tip = git(repo, 'rev-parse', record.branch);
    const head = git(repo, 'rev-parse', 'main');
    writeFileSync(journal, JSON.stringify({ head, tip, how: 'fast-forward', commits: [tip], merged: [], files: [] }));
    git(repo, 'commit', '-q', '--allow-empty', '-m', 'my own commit');
    writeFileSync(join(repo, 'src/other.js'), 'other, mine\n');
    const result = await handBack(repo, join(repo, '.git'), record, { apply: true, journal });
    expect(result).toMatchObject({ status: 'conflict' });
    expect(read(repo, 'src/other.js')).toBe('other, mine\n');
    expect(existsSync(journal)).toBe(false);
  });
});
