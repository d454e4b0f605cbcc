import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveRunner } from '../../src/engine/runners/index.js';
import { installRunner, makeProject, removeProjects } from './helpers/runner-versions.js';

// ava 6, installed from the npm registry into a cache outside the repository, on a project with three test files:
// ava titles a test `main` when it runs one file and `test › main` when it runs several.

afterAll(removeProjects);

const ava = installRunner('ava@6');
const skip = 'skip' in ava ? ava.skip : null;

const TEST = (title: string) =>
  `import test from 'ava';\n\ntest(${JSON.stringify(title)}, (t) => {\n  t.is(1 + 1, 2);\n});\n\ntest('shared title', (t) => {\n  t.pass();\n});\n`;

describe(`ava: every test is <file>::<title>, whatever files ran with it${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it.skipIf(skip)(
    'the same ids in a full run, a run of several files and a run of one file',
    async () => {
      const dir = makeProject(
        {
          'package.json': JSON.stringify({ name: 'ava-ids', private: true, type: 'module', scripts: { test: 'ava' } }),
          'test.js': TEST('main'),
          'cache.test.js': TEST('caches'),
          'test/deep/test-parse.js': TEST('parses'),
        },
        (ava as { modules: string }).modules,
      );
      spawnSync('git', ['init', '-q'], { cwd: dir });
      const runner = await resolveRunner(dir, {});
      const options = { cwd: dir, timeoutMs: 120_000 };
      const ids = (run: { result: { tests: { id: string }[] } }) => run.result.tests.map((t) => t.id).sort();
      const all = [
        'cache.test.js::caches',
        'cache.test.js::shared title',
        'test.js::main',
        'test.js::shared title',
        'test/deep/test-parse.js::parses',
        'test/deep/test-parse.js::shared title',
      ];
      const full = await runner.run({ ...options, scope: 'full' });
      expect(ids(full), full.outputTail).toEqual(all);
      const two = await runner.runSubset!(options, { files: ['test.js', 'test/deep/test-parse.js'], names: [] });
      expect(ids(two!)).toEqual([
        'test.js::main',
        'test.js::shared title',
        'test/deep/test-parse.js::parses',
        'test/deep/test-parse.js::shared title',
      ]);
      const one = await runner.runSubset!(options, { files: ['test/deep/test-parse.js'], names: [] });
      expect(ids(one!)).toEqual(['test/deep/test-parse.js::parses', 'test/deep/test-parse.js::shared title']);
      expect(one!.result.tests.map((t) => t.name).sort()).toEqual(['parses', 'shared title']);
    },
    240_000,
  );
});
