import { afterAll, describe, expect, it } from 'vitest';
import { selectAffectedTests } from '../../src/engine/affected/index.js';
import { makeProject, removeProjects } from './project.js';

const made: string[] = [];
afterAll(() => removeProjects(made));

function project(files: Record<string, string>, options?: { git?: boolean }): string {
  const dir = makeProject(files, options);
  made.push(dir);
  return dir;
}

const select = (
  cwd: string,
  changedFiles: string[],
  extra: { lastFailedFiles?: string[]; testFiles?: string[]; runner?: string } = {},
) =>
  selectAffectedTests({
    cwd,
    runner: extra.runner ?? 'vitest',
    changedFiles,
    lastFailedFiles: extra.lastFailedFiles ?? [],
    testFiles: extra.testFiles,
  });

describe('selectAffectedTests for JS/TS projects', () => {
  it('follows ESM imports transitively to the tests that reach a changed module', async () => {
    const cwd = project({
      'package.json': '{"type":"module"}',
      'src/math.js': 'export const add = (a, b) => a + b;\n',
      'src/stats.js': "import { add } from './math.js';\nexport const sum = (xs) => xs.reduce(add, 0);\n",
      'src/format.js': 'export const fmt = (x) => String(x);\n',
      'test/stats.test.js': "import { sum } from '../src/stats.js';\n",
      'test/math.test.js': "import { add } from '../src/math.js';\n",
      'test/format.test.js': "import { fmt } from '../src/format.js';\n",
    });
    const selection = await select(cwd, ['src/math.js']);
    expect(selection.files).toEqual(['test/math.test.js', 'test/stats.test.js']);
    expect(selection.reason).toContain('2 test files load src/math.js');
  });

  it('follows CommonJS require() chains', async () => {
    const cwd = project({
      'lib/db.js': 'module.exports = { query: () => 1 };\n',
      'lib/users.js': "const db = require('./db');\nexports.find = () => db.query();\n",
      'lib/index.js': "module.exports = require('./users');\n",
      'lib/unrelated.js': "exports.x = 1; // require('./db') in a comment\n",
      '__tests__/users.js': "const users = require('../lib');\n",
      '__tests__/unrelated.js': "const u = require('../lib/unrelated');\nconst note = \"require('../lib/db')\";\n",
    });
    const selection = await select(cwd, ['lib/db.js'], { runner: 'jest' });
    expect(selection.files).toEqual(['__tests__/users.js']);
  });

  it('resolves tsconfig paths, .js specifiers of .ts files and index files', async () => {
    const cwd = project({
      'tsconfig.json': JSON.stringify({
        compilerOptions: {
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          baseUrl: '.',
          paths: { '@/*': ['src/*'] },
        },
        include: ['src'],
      }),
      'src/core/clock.ts': 'export const now = () => 0;\n',
      'src/core/index.ts': "export { now } from './clock.js';\n",
      'src/app.ts': "import { now } from '@/core';\nexport const run = () => now();\n",
      'src/other.ts': 'export const other = 1;\n',
      'test/app.test.ts': "import { run } from '@/app';\n",
      'test/other.spec.ts': "import { other } from '../src/other.js';\n",
    });
    expect((await select(cwd, ['src/core/clock.ts'])).files).toEqual(['test/app.test.ts']);
    expect((await select(cwd, ['src/other.ts'])).files).toEqual(['test/other.spec.ts']);
  });

  it('does not follow type-only imports', async () => {
    const cwd = project({
      'src/types.ts': 'export interface User { id: string }\nexport const VERSION = 1;\n',
      'src/user.ts': "import type { User } from './types';\nexport const make = (): User => ({ id: 'a' });\n",
      'src/view.ts': "import { type User } from './types';\nexport const show = (u: User) => u.id;\n",
      'src/version.ts': "import { VERSION } from './types';\nexport const v = VERSION;\n",
      'test/user.test.ts': "import { make } from '../src/user';\n",
      'test/view.test.ts': "import { show } from '../src/view';\nexport type { User } from '../src/types';\n",
      'test/version.test.ts': "import { v } from '../src/version';\n",
    });
    expect((await select(cwd, ['src/types.ts'])).files).toEqual(['test/version.test.ts']);
  });

  it('follows re-exports and dynamic imports, template-literal ones included', async () => {
    const cwd = project({
      'src/a.ts': 'export const a = 1;\n',
      'src/b.ts': 'export const b = 2;\n',
      'src/barrel.ts': "export * from './a';\nexport { b as bee } from './b';\n",
      'src/plugins/en.ts': 'export default {};\n',
      'src/plugins/fr.ts': 'export default {};\n',
      'src/loader.ts': 'export const load = (lang: string) => import(`./plugins/${lang}.js`);\n',
      'src/lazy.ts': 'export const lazy = 1;\n',
      'test/barrel.test.ts': "import { bee } from '../src/barrel';\n",
      'test/lazy.test.ts': "it('loads', async () => { await import('../src/lazy'); });\n",
      'test/loader.test.ts': "import { load } from '../src/loader';\n",
    });
    expect((await select(cwd, ['src/b.ts'])).files).toEqual(['test/barrel.test.ts']);
    expect((await select(cwd, ['src/lazy.ts'])).files).toEqual(['test/lazy.test.ts']);
    expect((await select(cwd, ['src/plugins/fr.ts'])).files).toEqual(['test/loader.test.ts']);
  });

  it('selects a changed test file itself and always adds the last failures', async () => {
    const cwd = project({
      'src/a.ts': 'export const a = 1;\n',
      'src/b.ts': 'export const b = 1;\n',
      'test/a.test.ts': "import { a } from '../src/a';\n",
      'test/b.test.ts': "import { b } from '../src/b';\n",
      'test/c.test.ts': 'export {};\n',
    });
    const selection = await select(cwd, ['test/c.test.ts', 'src/a.ts'], {
      lastFailedFiles: ['test/b.test.ts', 'test/deleted.test.ts'],
    });
    expect(selection.files).toEqual(['test/a.test.ts', 'test/b.test.ts', 'test/c.test.ts']);
    expect(selection.reason).toContain('1 changed test file');
    expect(selection.reason).toContain('1 test file failed last time');
  });

  it('reads a project through a symlinked path, with absolute and ./ paths in the input', async () => {
    const { symlinkSync } = await import('node:fs');
    const real = project({
      'src/a.ts': 'export const a = 1;\n',
      'test/a.test.ts': "import { a } from '../src/a.js';\n",
    });
    const link = `${real}-link`;
    symlinkSync(real, link);
    made.push(link);
    const selection = await select(link, [`${link}/src/a.ts`], { lastFailedFiles: ['./test/a.test.ts'] });
    expect(selection.files).toEqual(['test/a.test.ts']);
  });

  it('uses the test files the runner listed instead of naming conventions', async () => {
    const cwd = project({
      'src/a.js': 'exports.a = 1;\n',
      'checks/a-check.js': "require('../src/a');\n",
      'test/helpers/a-helper.test.js': "require('../../src/a');\n",
    });
    const selection = await select(cwd, ['src/a.js'], { runner: 'mocha', testFiles: ['checks/a-check.js'] });
    expect(selection.files).toEqual(['checks/a-check.js']);
  });

  it('runs everything when a config, manifest, lockfile or setup file changes', async () => {
    const cwd = project({
      'package.json': '{}',
      'vitest.config.ts': "import { plugin } from './build/plugin';\nexport default { plugins: [plugin] };\n",
      'build/plugin.ts': 'export const plugin = {};\n',
      'test/setup.ts': "import '../src/polyfill';\n",
      'src/polyfill.ts': 'export {};\n',
      'test/a.test.ts': 'export {};\n',
    });
    for (const [file, words] of [
      ['vitest.config.ts', 'the runner config'],
      ['package.json', 'package.json'],
      ['package-lock.json', 'a lockfile'],
      ['tsconfig.json', 'the TypeScript config'],
      ['test/setup.ts', 'the test setup file'],
    ] as const) {
      const selection = await select(cwd, [file]);
      expect(selection.files).toBe('all');
      expect(selection.reason).toContain(`${file} is ${words}`);
    }
    const viaPlugin = await select(cwd, ['build/plugin.ts']);
    expect(viaPlugin).toMatchObject({ files: 'all' });
    expect(viaPlugin.reason).toContain('vitest.config.ts loads build/plugin.ts');
    expect((await select(cwd, ['src/polyfill.ts'])).reason).toContain('test/setup.ts loads src/polyfill.ts');
  });

  it('runs everything when a changed file is not in the import graph', async () => {
    const cwd = project({
      'src/a.ts': 'export const a = 1;\n',
      'src/styles.css': 'a {}\n',
      'test/a.test.ts': "import { a } from '../src/a';\n",
    });
    const selection = await select(cwd, ['src/styles.css']);
    expect(selection.files).toBe('all');
    expect(selection.reason).toContain('src/styles.css is not in the import graph');
  });

  it('leaves out files git ignores, and walks the folders when the project is not a git repository', async () => {
    const files = {
      '.gitignore': 'dist/\n',
      'src/a.js': 'exports.a = 1;\n',
      'dist/a.test.js': "require('../src/a');\n",
      'test/a.test.js': "require('../src/a');\n",
    };
    expect((await select(project(files), ['src/a.js'])).files).toEqual(['test/a.test.js']);
    expect((await select(project(files, { git: false }), ['src/a.js'])).files).toEqual(['test/a.test.js']);
  });

  it('answers all, with the reason, for runners it cannot subset', async () => {
    const cwd = project({ 'src/lib.rs': '' });
    expect(await select(cwd, ['src/lib.rs'], { runner: 'cargo' })).toMatchObject({
      files: 'all',
      reason: expect.stringContaining('cargo'),
    });
    expect(await select(cwd, ['src/lib.rs'], { runner: 'command' })).toMatchObject({
      files: 'all',
      reason: expect.stringContaining('--test-cmd'),
    });
    expect(await select(`${cwd}/missing`, ['a.ts'])).toMatchObject({
      files: 'all',
      reason: expect.stringContaining('does not exist'),
    });
  });
});
