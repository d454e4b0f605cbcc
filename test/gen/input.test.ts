import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { git, makeRepo, removeRepos } from '../helpers/repo.js';
import { readGenInput } from '../../src/engine/gen/input.js';

afterAll(removeRepos);

const files = {
  'package.json': '{ "type": "module" }',
  'src/retry.js': 'export function retryWithBackoff(fn, tries) {\n  return fn();\n}\n',
  'src/format.js': 'export const pad = (s) => s;\n',
  'test/format.test.js': "import { pad } from '../src/format.js';\n",
};

describe('gen input modes', () => {
  it('a description: the source files it names, by path, by file name or by a function they declare', async () => {
    const repo = makeRepo(null, files);
    expect((await readGenInput(repo, 'cover src/format.js')).change.files.map((f) => f.file)).toEqual([
      'src/format.js',
    ]);
    expect((await readGenInput(repo, 'cover the new retry logic')).change.files.map((f) => f.file)).toEqual([
      'src/retry.js',
    ]);
    const byFunction = await readGenInput(repo, 'test retryWithBackoff edge cases');
    expect(byFunction).toMatchObject({ mode: 'prompt', sourceSessionId: null });
    expect(byFunction.change.files[0]).toMatchObject({ file: 'src/retry.js', lines: [1, 2, 3] });
    await expect(readGenInput(repo, 'make it better')).rejects.toThrow(/names nothing to test/);
  });

  it('a .md file holding the description', async () => {
    const repo = makeRepo(null, { ...files, 'docs/task.md': '# Task\n\nCover the retry helper.\n' });
    const input = await readGenInput(repo, 'docs/task.md');
    expect(input.description).toMatch(/Cover the retry helper/);
    expect(input.change.files.map((f) => f.file)).toEqual(['src/retry.js']);
  });

  it('a WFS- session: the source files its completed tasks and summaries name, in active or archives', async () => {
    const repo = makeRepo(null, files);
    const dir = join(repo, '.workflow/archives/WFS-impl-retry');
    mkdirSync(join(dir, '.task'), { recursive: true });
    mkdirSync(join(dir, '.summaries'), { recursive: true });
    writeFileSync(
      join(dir, '.task/IMPL-1.json'),
      JSON.stringify({
        id: 'IMPL-1',
        title: 'Add retry',
        status: 'completed',
        context: { focus_paths: ['src/retry.js'] },
      }),
    );
    writeFileSync(
      join(dir, '.task/IMPL-2.json'),
      JSON.stringify({ id: 'IMPL-2', title: 'Later', status: 'pending', context: { focus_paths: ['src/other.js'] } }),
    );
    writeFileSync(join(dir, '.summaries/IMPL-1-summary.md'), 'Changed `src/format.js:1` too.\n');
    const input = await readGenInput(repo, 'WFS-impl-retry');
    expect(input).toMatchObject({ mode: 'session', sourceSessionId: 'WFS-impl-retry', description: 'Add retry' });
    expect(input.change.files.map((f) => f.file)).toEqual(['src/format.js', 'src/retry.js']);
  });

  it('nothing: the branch against its merge base with main, else the last commit; hunks give the changed lines', async () => {
    const repo = makeRepo(null, files);
    git(repo, 'switch', '-q', '-c', 'feature');
    writeFileSync(
      join(repo, 'src/retry.js'),
      'export function retryWithBackoff(fn, tries) {\n  for (let i = 1; i < tries; i++) {\n    try { return fn(); } catch {}\n  }\n  return fn();\n}\n',
    );
    writeFileSync(join(repo, 'test/format.test.js'), "import { pad } from '../src/format.js';\n// more\n");
    git(repo, 'commit', '-qam', 'retry loop');
    const onBranch = await readGenInput(repo, undefined);
    expect(onBranch.mode).toBe('change');
    expect(onBranch.change.describedAs).toMatch(/the change on feature since its merge base with main/);
    // Test files are not the change to cover.
    expect(onBranch.change.files).toEqual([
      { file: 'src/retry.js', hunks: [{ start: 2, count: 3 }], lines: [2, 3, 4] },
    ]);
    git(repo, 'switch', '-q', 'main');
    const onMain = await readGenInput(repo, undefined);
    expect(onMain.change.describedAs).toMatch(/the last commit/);
    expect(onMain.change.files.map((f) => f.file)).toEqual(['src/format.js', 'src/retry.js']);
  });
});
