import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { git, readJson, removeRepos, ROOT } from '../helpers/repo.js';
import { genProject, genSession, pytestBase, pytestEnv, runGen } from '../helpers/gen-run.js';

afterAll(removeRepos);

// The runner says what a test is and whether it checks anything: real projects' ways of writing tests that no
// pattern over their text reads right, written back by a stand-in generator (test/fixtures/agents/files-agent.mjs).
const AGENT = join(ROOT, 'test/fixtures/agents/files-agent.mjs');

/** gen with the files agent following a plan of files to write, round by round. */
async function gen(
  repo: string,
  plan: { target: string; rounds: Record<string, string | null>[] },
): Promise<{ out: string; exitCode: number | null | undefined; state: any; committed: string[] }> {
  const agent = mkdtempSync(join(tmpdir(), 'fixcycle-files-agent-'));
  writeFileSync(join(agent, 'plan.json'), JSON.stringify(plan));
  return runGen(repo, `${process.execPath} ${AGENT} ${agent} ${join(agent, 'plan.json')}`);
}

const rejections = (state: any): string =>
  state.rejected.map((r: any) => `${r.gate} ${r.test}: ${r.reason}`).join('\n') || '(none)';

const nodeProject = {
  'package.json': JSON.stringify({ name: 'checks', private: true, scripts: { test: 'node --test' } }),
  'src/slug.js': "exports.slug = (s) => s.trim().toLowerCase().replace(/\\s+/g, '-');\n",
  'test/slug.test.js':
    "const { test } = require('node:test');\nconst assert = require('node:assert');\nconst { slug } = require('../src/slug.js');\n\ntest('slug joins words', () => {\n  assert.equal(slug(' A b '), 'a-b');\n});\n",
  // The project's own test helpers, as published projects have them: a planned assert (tspl's shape) and a table
  // runner whose assertions live in the helper (validator.js's `test({ validator, valid, invalid })`).
  'test/helpers/tspl.js':
    "const assert = require('node:assert');\n\nmodule.exports = function tspl(t, { plan }) {\n  let count = 0;\n  const counted = {};\n  for (const name of ['equal', 'strictEqual', 'deepStrictEqual', 'throws'])\n    counted[name] = (...args) => {\n      count++;\n      return assert[name](...args);\n    };\n  t.after(() => assert.strictEqual(count, plan, `planned ${plan} assertions, made ${count}`));\n  return counted;\n};\n",
  'test/helpers/table.js':
    "const assert = require('node:assert');\n\nexports.table = function table({ fn, valid, invalid }) {\n  for (const v of valid) assert.ok(fn(v), `${fn.name}(${JSON.stringify(v)}) should pass`);\n  for (const v of invalid) assert.ok(!fn(v), `${fn.name}(${JSON.stringify(v)}) should fail`);\n};\n",
};

const checksJs = `exports.isEven = (n) => n % 2 === 0;

exports.isDigits = (s) => /^[0-9]+$/.test(s);

exports.parsePort = (text) => {
  const port = Number(text);
  if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new RangeError(\`not a port: \${text}\`);
  return port;
};
`;

describe('the runner judges a test, not a pattern over its text', () => {
  it('node:test: destructured asserts (tspl, require of node:assert) and a table test asserting in a shared helper are kept and committed', async () => {
    const repo = genProject(nodeProject, { 'src/checks.js': checksJs });
    const file = `const { test } = require('node:test');
const { strictEqual, throws } = require('node:assert');
const tspl = require('./helpers/tspl.js');
const { table } = require('./helpers/table.js');
const { isDigits, isEven, parsePort } = require('../src/checks.js');

test('isEven tells even from odd', (t) => {
  const { strictEqual } = tspl(t, { plan: 2 });
  strictEqual(isEven(2), true);
  strictEqual(isEven(3), false);
});

test('isDigits', () => table({ fn: isDigits, valid: ['0', '123'], invalid: ['12a', ''] }));

test('parsePort reads a port and refuses others', () => {
  strictEqual(parsePort('8080'), 8080);
  throws(() => parsePort('70000'), RangeError);
});
`;
    const { out, exitCode, state, committed } = await gen(repo, {
      target: 'src/checks.js:parsePort',
      rounds: [{ 'test/checks.test.js': file }],
    });
    expect(exitCode, out).toBe(0);
    expect(state.kept.map((k: any) => k.test).sort(), rejections(state)).toEqual([
      'test/checks.test.js::isDigits',
      'test/checks.test.js::isEven tells even from odd',
      'test/checks.test.js::parsePort reads a port and refuses others',
    ]);
    expect(committed).toEqual(['test/checks.test.js']);
    expect(git(repo, 'show', `${state.gen_commit}:test/checks.test.js`)).toBe(file.trimEnd());
    // L0 still says what it saw, as a warning: the runs decided.
    const l0 = readJson(join(genSession(repo), '.process/l0-round-1.json'));
    expect(l0.findings.filter((f: any) => f.severity === 'critical')).toEqual([]);
  }, 480_000);

  it('vitest: titles made at run time (a call, test.each) are the runner\'s: the file is committed, not refused as "holding no test"', async () => {
    const repo = genProject(
      {
        'package.json': JSON.stringify({
          name: 'calclib',
          private: true,
          type: 'module',
          scripts: { test: 'vitest run' },
        }),
        'src/slug.js': "export const slug = (s) => s.trim().toLowerCase().replace(/\\s+/g, '-');\n",
        'test/slug.test.js':
          "import { expect, test } from 'vitest';\nimport { slug } from '../src/slug.js';\n\ntest('slug joins words', () => {\n  expect(slug(' A b ')).toBe('a-b');\n});\n",
      },
      {
        'src/calc.js':
          'export function add(a, b) {\n  return a + b;\n}\n\nexport function clamp(value, low, high) {\n  if (value < low) return low;\n  if (value > high) return high;\n  return value;\n}\n',
      },
      true,
    );
    const file = `import { expect, it, test } from 'vitest';
import { add, clamp } from '../src/calc.js';

const title = (a, b) => \`adds \${a} and \${b}\`;

it(title(2, 3), () => {
  expect(add(2, 3)).toBe(5);
});

test.each([
  [-5, 0],
  [50, 10],
  [5, 5],
])('clamp keeps %i within 0 and 10', (value, want) => {
  expect(clamp(value, 0, 10)).toBe(want);
});
`;
    const { out, exitCode, state, committed } = await gen(repo, {
      target: 'src/calc.js:clamp',
      rounds: [{ 'test/calc.test.js': file }],
    });
    expect(exitCode, out).toBe(0);
    expect(state.kept.map((k: any) => k.test).sort(), rejections(state)).toEqual([
      'test/calc.test.js::adds 2 and 3',
      'test/calc.test.js::clamp keeps -5 within 0 and 10',
      'test/calc.test.js::clamp keeps 5 within 0 and 10',
      'test/calc.test.js::clamp keeps 50 within 0 and 10',
    ]);
    expect(committed).toEqual(['test/calc.test.js']);
    expect(rejections(state)).not.toMatch(/holds no/);
  }, 480_000);

  it('gen that commits no test says so and exits 1, not 0', async () => {
    const repo = genProject(nodeProject, { 'src/checks.js': checksJs });
    const boot = `const { test } = require('node:test');
const assert = require('node:assert');
const { isEven } = require('../src/checks.js');

throw new Error('boot: needs a database that is not here');

test('isEven', () => {
  assert.equal(isEven(2), true);
});
`;
    const { out, exitCode, state, committed } = await gen(repo, {
      target: 'src/checks.js:isEven',
      rounds: [{ 'test/boot.test.js': boot }],
    });
    expect(committed).toEqual([]);
    expect(state.gen_commit).toBeNull();
    expect(exitCode, out).toBe(1);
    expect(out).toMatch(/no generated test was committed for the change/);
    expect(state.outcome).toMatch(/^failure: no generated test was committed/);
    expect(readFileSync(join(genSession(repo), '.summaries/gen-summary.md'), 'utf8')).toMatch(
      /Outcome: failure: no generated test was committed/,
    );
  }, 480_000);

  const pyEnv = pytestEnv;
  it.skipIf(!pyEnv)(
    'pytest over unittest classes (skipped without a python3 that imports pytest and coverage): assertRaises after a nested def is kept; a probe test the others read is dropped, the file run again, and the drop undone',
    async () => {
      const repo = genProject(pytestBase(pyEnv), {
        'files.py': `import os
import shutil


def parse_port(text):
    port = int(text)
    if not 0 < port < 65536:
        raise ValueError("port out of range: %d" % port)
    return port


def link_or_copy(src, dst, can_symlink):
    if can_symlink:
        os.symlink(src, dst)
        return "link"
    shutil.copyfile(src, dst)
    return "copy"
`,
      });
      const file = `import os
import tempfile
import unittest

from files import link_or_copy, parse_port


class TestPort(unittest.TestCase):
    def test_accepts_a_port(self):
        self.assertEqual(parse_port("8080"), 8080)

    def test_rejects_out_of_range(self):
        def test_call():
            return parse_port("70000")

        with self.assertRaises(ValueError):
            test_call()


class TestLink(unittest.TestCase):
    def test_0_probe(self):
        # Can this machine make symlinks? The tests below read the answer.
        with tempfile.TemporaryDirectory() as d:
            try:
                os.symlink(d, os.path.join(d, "link"))
                self.__class__.no_symlink = False
            except OSError:
                self.__class__.no_symlink = True

    def test_links_or_copies(self):
        with tempfile.TemporaryDirectory() as d:
            src = os.path.join(d, "a")
            open(src, "w").close()
            got = link_or_copy(src, os.path.join(d, "b"), not self.no_symlink)
            self.assertEqual(got, "copy" if self.no_symlink else "link")

    def test_copies_without_symlinks(self):
        with tempfile.TemporaryDirectory() as d:
            src = os.path.join(d, "a")
            open(src, "w").close()
            self.assertEqual(link_or_copy(src, os.path.join(d, "b"), False), "copy")
`;
      const { out, exitCode, state, committed } = await gen(repo, {
        target: 'files.py:link_or_copy',
        rounds: [{ 'tests/test_files.py': file }],
      });
      expect(exitCode, out).toBe(0);
      expect(state.kept.map((k: any) => k.test).sort(), rejections(state)).toEqual([
        'tests/test_files.py::TestLink > test_0_probe',
        'tests/test_files.py::TestLink > test_copies_without_symlinks',
        'tests/test_files.py::TestLink > test_links_or_copies',
        'tests/test_files.py::TestPort > test_accepts_a_port',
        'tests/test_files.py::TestPort > test_rejects_out_of_range',
      ]);
      const probe = state.kept.find((k: any) => k.test.endsWith('test_0_probe'));
      expect(probe.note).toMatch(/dropping it made the file's other tests fail .*test_links_or_copies/);
      expect(out).toMatch(/drop undone/);
      expect(committed).toEqual(['tests/test_files.py']);
      expect(git(repo, 'show', `${state.gen_commit}:tests/test_files.py`)).toBe(file.trimEnd());
    },
    480_000,
  );
});
