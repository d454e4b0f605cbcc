// The `.workflow` link out of the tree while the user's command runs, on real folders: overlapping runs share one
// absence, a link that is not fixcycle's and a plain folder are never moved, and a link left out comes back only
// once the process that took it is gone.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { activeDir, throughLink, workflowDir } from '../../src/engine/session/paths.js';
import { placeSessionLink, putBackLeftLink, withoutSessionLink } from '../../src/engine/session/session-link.js';
import { pathKind } from '../helpers/repo.js';

let root: string;
let gitDir: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'fixcycle-link-'));
  gitDir = join(root, '.git');
  mkdirSync(gitDir);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const away = (): string[] => readdirSync(join(gitDir, 'fixcycle')).filter((n) => n.startsWith('.workflow-link-away-'));

describe('the session link', () => {
  it('is out of the tree while commands run, once for overlapping ones, and back after the last; the real folder stays found', async () => {
    await placeSessionLink(root, gitDir);
    const kept = join(gitDir, 'fixcycle', '.workflow');
    expect(workflowDir(root)).toBe(kept);
    let release!: () => void;
    const first = withoutSessionLink(root, () => new Promise<void>((r) => (release = r)));
    await new Promise((r) => setTimeout(r, 20));
    expect(pathKind(join(root, '.workflow'))).toBe('nothing');
    expect(away()).toEqual([`.workflow-link-away-${process.pid}`]);
    expect(workflowDir(root)).toBe(kept);
    expect(activeDir(root)).toBe(join(kept, 'active'));
    // Agents are told the paths `.workflow` names.
    expect(throughLink(root, join(kept, 'active', 'WFS-test-x', 'a.json'))).toBe(
      join(root, '.workflow', 'active', 'WFS-test-x', 'a.json'),
    );
    const second = await withoutSessionLink(root, async () => pathKind(join(root, '.workflow')));
    expect(second).toBe('nothing');
    expect(pathKind(join(root, '.workflow'))).toBe('nothing');
    release();
    await first;
    expect(pathKind(join(root, '.workflow'))).toBe('link');
    expect(away()).toEqual([]);
  });

  it('leaves a plain folder and a link that is not fixcycle’s where they are', async () => {
    mkdirSync(join(root, '.workflow/active'), { recursive: true });
    expect(await withoutSessionLink(root, async () => pathKind(join(root, '.workflow')))).toBe('folder');
    expect(workflowDir(root)).toBe(join(root, '.workflow'));
    rmSync(join(root, '.workflow'), { recursive: true });
    const elsewhere = mkdtempSync(join(tmpdir(), 'fixcycle-elsewhere-'));
    symlinkSync(elsewhere, join(root, '.workflow'), 'dir');
    expect(await withoutSessionLink(root, async () => pathKind(join(root, '.workflow')))).toBe('link');
    expect(workflowDir(root)).toBe(elsewhere);
    rmSync(elsewhere, { recursive: true });
  });

  it('a link left out by a process still running stays out; once it is gone, the next start puts it back', async () => {
    await placeSessionLink(root, gitDir);
    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    const marker = join(gitDir, 'fixcycle', `.workflow-link-away-${sleeper.pid}`);
    renameSync(join(root, '.workflow'), marker);
    expect(await putBackLeftLink(root, gitDir)).toBe(true);
    await placeSessionLink(root, gitDir);
    expect(pathKind(join(root, '.workflow'))).toBe('nothing');
    sleeper.kill('SIGKILL');
    await new Promise((r) => sleeper.once('exit', r));
    await placeSessionLink(root, gitDir);
    expect(pathKind(join(root, '.workflow'))).toBe('link');
    expect(away()).toEqual([]);
    writeFileSync(join(workflowDir(root), 'kept.txt'), 'x');
    expect(pathKind(join(gitDir, 'fixcycle', '.workflow', 'kept.txt'))).toBe('file');
  });
});
