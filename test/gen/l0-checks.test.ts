import { afterAll, describe, expect, it } from 'vitest';
import { makeRepo, removeRepos } from '../helpers/repo.js';
import { staticChecks } from '../../src/engine/gen/l0/static-checks.js';
import { projectChecks } from '../../src/engine/gen/l0/project-checks.js';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/repo.js';

afterAll(removeRepos);

const lib = {
  'package.json': '{ "type": "module" }',
  'src/math.js': 'export function add(a, b) {\n  return a + b;\n}\nexport const PI = 3.14;\n',
  'src/legacy.cjs': 'module.exports = { old: () => 1 };\n',
};

describe('L0 static checks on generated tests', () => {
  it('finds hallucinated imports, unresolved files and packages, missing assertions, constant assertions, focus and skip, placeholders', async () => {
    const repo = makeRepo(null, {
      ...lib,
      'test/a.test.js': [
        "import { test } from 'node:test';",
        "import assert from 'node:assert/strict';",
        "import { add, subtract } from '../src/math.js';",
        "import { gone } from '../src/missing.js';",
        "import leftpad from 'left-pad-not-installed';",
        "test('adds', () => {\n  assert.equal(add(1, 2), 3);\n});",
        "test('calls only', () => {\n  add(1, 2);\n});",
        "test('constant', () => {\n  assert.equal(true, true);\n});",
        "test.only('focused', () => {\n  assert.equal(add(0, 0), 0);\n});",
        "test.skip('skipped', () => {\n  assert.equal(add(0, 1), 1);\n});",
        '// TODO: more cases',
      ].join('\n'),
      'src/uses-mock.js':
        "import { fake } from '../test/__mocks__/db.js';\nexport const x = fake;\nexport function later() {\n  throw new Error('not implemented');\n}\n",
    });
    const findings = await staticChecks(repo, ['test/a.test.js'], ['src/uses-mock.js']);
    const lines = findings.map((f) => `${f.severity} ${f.check} ${f.file}:${f.line} ${f.message}`);
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^critical export test\/a\.test\.js:3 imports \{ subtract \} .*does not export \(it exports add, PI\)/,
      ),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^critical import test\/a\.test\.js:4 imports "\.\.\/src\/missing\.js", a file that does not exist/,
      ),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^critical import test\/a\.test\.js:5 imports "left-pad-not-installed", a package that is not installed/,
      ),
    );
    // Whether a test checks anything is proven by running it: these two are L0's hints for the quality gate.
    expect(lines).toContainEqual(expect.stringMatching(/^warning no-assertion .*"calls only" asserts nothing/));
    expect(lines).toContainEqual(
      expect.stringMatching(/^warning constant-assertion .*"constant" asserts on a constant/),
    );
    expect(lines.filter((l) => l.includes('focused-or-skipped'))).toHaveLength(2);
    expect(lines).toContainEqual(expect.stringMatching(/^warning placeholder test\/a\.test\.js:\d+ a TODO/));
    expect(lines).toContainEqual(expect.stringMatching(/^critical mock-in-source src\/uses-mock\.js:1 .*__mocks__/));
    expect(lines).toContainEqual(
      expect.stringMatching(/^critical placeholder src\/uses-mock\.js:4 throws "not implemented"/),
    );
    // A good test has no finding; a test asserting on the code's result is not "constant".
    expect(lines.some((l) => l.includes('"adds"'))).toBe(false);
  });

  it('accepts named imports from CommonJS and `export *` modules it cannot see into', async () => {
    const repo = makeRepo(null, {
      ...lib,
      'src/index.js': "export * from './math.js';\n",
      'test/b.test.js':
        "import { test } from 'node:test';\nimport assert from 'node:assert';\nimport { old } from '../src/legacy.cjs';\nimport { anything } from '../src/index.js';\ntest('x', () => {\n  assert.equal(old(), 1);\n});\n",
    });
    expect(await staticChecks(repo, ['test/b.test.js'], [])).toEqual([]);
  });

  it("runs the project's own tsc and reports compile errors in the new tests only", async () => {
    const repo = makeRepo(null, {
      'tsconfig.json': JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          module: 'nodenext',
          target: 'es2022',
          skipLibCheck: true,
          types: [],
        },
        include: ['src', 'test'],
      }),
      'src/old.ts': 'export const broken: number = "already broken";\n',
      'src/m.ts': 'export function twice(n: number): number {\n  return n * 2;\n}\n',
      'test/m.test.ts': "import { twice } from '../src/m.js';\nconst s: string = twice(2);\nexport { s };\n",
    });
    symlinkSync(join(ROOT, 'node_modules'), join(repo, 'node_modules'));
    const run = await projectChecks(repo, ['test/m.test.ts'], 60_000);
    expect(run.ran).toEqual(['tsc --noEmit']);
    expect(run.findings).toEqual([
      expect.objectContaining({ file: 'test/m.test.ts', line: 2, severity: 'critical', check: 'typecheck' }),
    ]);
    expect(run.skipped).toEqual([expect.stringMatching(/^lint/)]);
  });
});

describe('L0 static checks on Python test files', () => {
  it('names each bad test for what it is, attributes decorators to their test, and leaves helpers alone', async () => {
    const repo = makeRepo(null, {
      'calc.py': 'def add(a, b):\n    return a + b\n',
      'tests/test_calc.py': [
        'import pytest',
        'from calc import add',
        '',
        '',
        'def check(x):',
        '    assert add(x, 0) == x',
        '',
        '',
        'def noop():',
        '    pass',
        '',
        '',
        'def test_via_helper():',
        '    check(3)',
        '',
        '',
        'def test_raises():',
        '    with pytest.raises(TypeError):',
        '        add(1)',
        '',
        '',
        'def test_calls_only():',
        '    add(1, 2)',
        '',
        '',
        '@pytest.mark.xfail(reason="later")',
        'def test_xfail():',
        '    assert add(1, 1) == 3',
        '',
        '',
        'class TestThing:',
        '    def test_constant(self):',
        '        assert True',
        '',
        '    def test_literals(self):',
        '        self.assertEqual(3, 3)',
        '',
        '    def test_expected_first(self):',
        "        self.assertEqual('<a>1</a>', str(add(0, 1)))",
        '',
        '    def test_todo(self):',
        '        """Later."""',
        '        raise NotImplementedError',
        '',
      ].join('\n'),
    });
    const findings = await staticChecks(repo, ['tests/test_calc.py'], []);
    // Only a focused or skipped test blocks at L0; the rest are hints for the quality gate, which runs the tests.
    expect(
      findings
        .filter((f) => f.severity === 'critical')
        .map((f) => `${f.check} ${f.test ?? '(file)'}`)
        .sort(),
    ).toEqual(['focused-or-skipped test_xfail']);
    expect(
      findings
        .filter((f) => f.severity === 'critical' || f.check !== 'placeholder' || f.test)
        .map((f) => `${f.check} ${f.test ?? '(file)'}`)
        .sort(),
    ).toEqual([
      'constant-assertion TestThing > test_constant',
      // A literal against a literal checks nothing; the expected literal first (xmltodict's shape) is a check.
      'constant-assertion TestThing > test_literals',
      'focused-or-skipped test_xfail',
      'no-assertion test_calls_only',
      'placeholder TestThing > test_todo',
    ]);
  });
});

describe('L0 on CommonJS modules', () => {
  it("reads what a CommonJS module exports (bytes' own shape) and rejects a destructured require of a name it does not", async () => {
    const repo = makeRepo(null, {
      'package.json': JSON.stringify({ name: 'bytes-like', main: 'index.js' }),
      // The shape of the published `bytes` package's index.js.
      'index.js':
        "'use strict';\nmodule.exports = bytes;\nmodule.exports.format = format;\nmodule.exports.parse = parse;\nfunction bytes(v) { return v; }\nfunction format(v) { return String(v); }\nfunction parse(v) { return Number(v); }\n",
      'lib/obj.js':
        'module.exports = {\n  one,\n  two: 2,\n  three() { return 3; },\n};\nfunction one() { return 1; }\n',
      'lib/fn.js': 'function main() {}\nmain.helper = () => 1;\nmodule.exports = main;\n',
      'lib/cls.js': 'class Thing {}\nmodule.exports = Thing;\n',
      'test/a.test.js': [
        "const assert = require('node:assert');",
        "const { parse, parseUnit } = require('..');",
        "const { one, three, four } = require('../lib/obj.js');",
        "const { helper, missing } = require('../lib/fn.js');",
        "const { whatever } = require('../lib/cls.js');",
        "test('p', () => {\n  assert.equal(parse('1'), 1);\n});",
      ].join('\n'),
    });
    const findings = await staticChecks(repo, ['test/a.test.js'], []);
    expect(
      findings
        .filter((f) => f.check === 'export')
        .map((f) => f.message)
        .sort(),
    ).toEqual([
      'imports { four } from "../lib/obj.js", which lib/obj.js does not export (it exports one, two, three)',
      'imports { missing } from "../lib/fn.js", which lib/fn.js does not export (it exports helper)',
      'imports { parseUnit } from "..", which index.js does not export (it exports format, parse)',
    ]);
  });

  it("reads a spread of another module's exports (@fastify/merge-json-schemas' index.js), and gives no finding where a spread cannot be read", async () => {
    const repo = makeRepo(null, {
      'package.json': JSON.stringify({ name: 'merge-like', main: 'index.js' }),
      // The end of the published index.js, and its lib/errors.js.
      'index.js':
        "'use strict'\n\nconst errors = require('./lib/errors')\n\nfunction mergeSchemas () {}\nconst keywordsResolvers = {}\nfunction defaultResolver () {}\n\nmodule.exports = { mergeSchemas, keywordsResolvers, defaultResolver, ...errors }\n",
      'lib/errors.js':
        "'use strict'\n\nclass MergeError extends Error {}\nclass ResolverNotFoundError extends Error {}\n\nmodule.exports = {\n  MergeError,\n  ResolverNotFoundError\n}\n",
      'lib/direct.js': "module.exports = { own: 1, ...require('./errors') }\n",
      'lib/dynamic.js': 'const parts = build()\nmodule.exports = { own: 1, ...parts }\n',
      'lib/loop-a.js': "const b = require('./loop-b')\nmodule.exports = { a: 1, ...b }\n",
      'lib/loop-b.js': "const a = require('./loop-a')\nmodule.exports = { b: 1, ...a }\n",
      'test/a.test.js': [
        "const assert = require('node:assert/strict')",
        "const { mergeSchemas, MergeError, mergeProperties } = require('../index')",
        "const { own, ResolverNotFoundError, nothing } = require('../lib/direct.js')",
        "const { whatever } = require('../lib/dynamic.js')",
        "const { a, c } = require('../lib/loop-a.js')",
        "test('m', () => {\n  assert.ok(mergeSchemas)\n})",
      ].join('\n'),
    });
    const findings = await staticChecks(repo, ['test/a.test.js'], []);
    expect(
      findings
        .filter((f) => f.check === 'export')
        .map((f) => f.message)
        .sort(),
    ).toEqual([
      'imports { mergeProperties } from "../index", which index.js does not export (it exports mergeSchemas, keywordsResolvers, defaultResolver, MergeError, ResolverNotFoundError)',
      'imports { nothing } from "../lib/direct.js", which lib/direct.js does not export (it exports own, MergeError, ResolverNotFoundError)',
    ]);
  });
});
