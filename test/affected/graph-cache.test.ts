import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { selectAffectedTests } from '../../src/engine/affected/index.js';
import { makeProject, removeProjects, writeFiles } from './project.js';

const made: string[] = [];
afterAll(() => removeProjects(made));

function project(files: Record<string, string>): { cwd: string; cacheDir: string } {
  const cwd = makeProject(files);
  made.push(cwd);
  return { cwd, cacheDir: join(cwd, '.cache-for-test') };
}

const select = (p: { cwd: string; cacheDir?: string }, changedFiles: string[]) =>
  selectAffectedTests({ ...p, runner: 'vitest', changedFiles, lastFailedFiles: [] });

describe('the cached import graph', () => {
  it('is saved on the first selection and reused after, re-reading only what changed', async () => {
    const p = project({
      'src/a.ts': 'export const a = 1;\n',
      'src/b.ts': 'export const b = 2;\n',
      'test/a.test.ts': "import { a } from '../src/a';\n",
      'test/b.test.ts': "import { b } from '../src/b';\n",
    });
    const cold = await select(p, ['src/a.ts']);
    expect(cold.reason).toContain('cache cold');
    expect(existsSync(join(p.cacheDir, 'affected-graph.json'))).toBe(true);

    const warm = await select(p, ['src/a.ts']);
    expect(warm.files).toEqual(['test/a.test.ts']);
    expect(warm.reason).toContain('cache warm, 1 re-read');

    // b.ts now imports a.ts: its size changed, so it is read again although only a.ts is named.
    writeFiles(p.cwd, { 'src/b.ts': "import { a } from './a';\nexport const b = a + 1;\n" });
    const updated = await select(p, ['src/a.ts']);
    expect(updated.files).toEqual(['test/a.test.ts', 'test/b.test.ts']);
    expect(updated.reason).toContain('cache warm, 2 re-read');
  });

  it('sees new files, including one that an import could not find before and one that shadows an index file', async () => {
    const p = project({
      'src/util/index.ts': 'export const u = 1;\n',
      'test/util.test.ts': "import { u } from '../src/util';\n",
      'test/later.test.ts': "import { later } from '../src/later';\n",
    });
    expect((await select(p, ['src/util/index.ts'])).files).toEqual(['test/util.test.ts']);

    writeFiles(p.cwd, { 'src/later.ts': 'export const later = 1;\n', 'src/util.ts': 'export const u = 2;\n' });
    expect((await select(p, ['src/later.ts'])).files).toEqual(['test/later.test.ts']);
    expect((await select(p, ['src/util.ts'])).files).toEqual(['test/util.test.ts']);
    expect((await select(p, ['src/util/index.ts'])).files).toEqual([]);
  });

  it('still finds the tests of a deleted module through the importers the cache remembers', async () => {
    const p = project({
      'src/gone.ts': 'export const g = 1;\n',
      'src/user.ts': "import { g } from './gone';\nexport const u = g;\n",
      'src/other.ts': 'export const o = 1;\n',
      'test/user.test.ts': "import { u } from '../src/user';\n",
      'test/other.test.ts': "import { o } from '../src/other';\n",
    });
    await select(p, ['src/other.ts']);
    rmSync(join(p.cwd, 'src/gone.ts'));
    expect((await select(p, ['src/gone.ts'])).files).toEqual(['test/user.test.ts']);

    const withoutCache = await select({ cwd: p.cwd }, ['src/gone.ts']);
    expect(withoutCache.files).toBe('all');
    expect(withoutCache.reason).toContain('src/gone.ts was deleted');
  });

  it('ignores an unreadable cache file and rebuilds it', async () => {
    const p = project({ 'src/a.ts': 'export const a = 1;\n', 'test/a.test.ts': "import '../src/a';\n" });
    mkdirSync(p.cacheDir, { recursive: true });
    writeFileSync(join(p.cacheDir, 'affected-graph.json'), '{"version": 2, "files": [trunc');
    const selection = await select(p, ['src/a.ts']);
    expect(selection.files).toEqual(['test/a.test.ts']);
    expect(selection.reason).toContain('cache cold');
    expect((await select(p, ['src/a.ts'])).reason).toContain('cache warm');
  });

  it('lives in node_modules/.cache/fixcycle by default', async () => {
    const p = project({
      'node_modules/.keep': '',
      'src/a.ts': 'export {};\n',
      'test/a.test.ts': "import '../src/a';\n",
    });
    await select({ cwd: p.cwd }, ['src/a.ts']);
    expect(existsSync(join(p.cwd, 'node_modules/.cache/fixcycle/affected-graph.json'))).toBe(true);
  });
});
