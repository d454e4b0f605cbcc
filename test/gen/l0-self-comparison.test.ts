import { afterAll, describe, expect, it } from 'vitest';
import { makeRepo, removeRepos } from '../helpers/repo.js';
import { staticChecks } from '../../src/engine/gen/l0/static-checks.js';

afterAll(removeRepos);

const constant = async (files: Record<string, string>): Promise<string[]> => {
  const repo = makeRepo(null, files);
  const findings = await staticChecks(repo, Object.keys(files), []);
  return findings
    .filter((f) => f.check === 'constant-assertion')
    .map((f) => `${f.file}:${f.line} ${f.test}: ${f.message.replace(/^test "[^"]*" /, '')}`);
};

describe('L0: a value compared with itself is a constant assertion, in every language', () => {
  it('Go: `if got != got`, reflect.DeepEqual(x, x) and testify on the same value; `got != want` is a check', async () => {
    const go = `package calc

import (
\t"reflect"
\t"testing"
)

func TestSelf(t *testing.T) {
\tgot := Add(1, 2)
\tif got != got {
\t\tt.Fatal("unexpected value")
\t}
}

func TestSelfInit(t *testing.T) {
\tif got := Add(1, 2); got == got {
\t\treturn
\t}
\tt.Fatal("never")
}

func TestDeep(t *testing.T) {
\tv := []int{Add(1, 2)}
\tif !reflect.DeepEqual(v, v) {
\t\tt.Error("no")
\t}
}

func TestReal(t *testing.T) {
\tgot, want := Add(1, 2), 3
\tif got != want {
\t\tt.Errorf("got %d", got)
\t}
\tif Add(1, 2) != Add(2, 1) {
\t\tt.Error("not commutative")
\t}
}
`;
    expect(await constant({ 'go.mod': 'module example.com/calc\n', 'calc_test.go': go })).toEqual([
      'calc_test.go:10 TestSelf: compares a value with itself, a constant result: if got != got {',
      'calc_test.go:16 TestSelfInit: compares a value with itself, a constant result: if got := Add(1, 2); got == got {',
      'calc_test.go:24 TestDeep: compares a value with itself, a constant result: if !reflect.DeepEqual(v, v) {',
    ]);
  });

  it('JS: expect(x).toBe(x), assert.deepStrictEqual(x, x), ava t.is(x, x); two computations compared stay checks', async () => {
    const js = `import { expect, test } from 'vitest';
import assert from 'node:assert';
import { add } from '../src/math.js';

test('self expect', () => {
  const sum = add(1, 2);
  expect(sum).toBe(sum);
});

test('self assert', () => {
  const out = { sum: add(1, 2) };
  assert.deepStrictEqual(out.sum, out.sum);
});

test('self ava', (t) => {
  const sum = add(1, 2);
  t.is(sum, sum);
});

test('real', () => {
  const sum = add(1, 2);
  expect(sum).toBe(3);
  expect(add(1, 2)).toBe(add(2, 1));
  assert.equal(sum, sum2);
});
`;
    expect(
      await constant({
        'package.json': '{ "type": "module" }',
        'src/math.js': 'export const add = (a, b) => a + b;\n',
        'test/math.test.js': js,
      }),
    ).toEqual([
      'test/math.test.js:7 self expect: compares a value with itself, a constant result: expect(sum).toBe(sum);',
      'test/math.test.js:12 self assert: compares a value with itself, a constant result: assert.deepStrictEqual(out.sum, out.sum);',
      'test/math.test.js:17 self ava: compares a value with itself, a constant result: t.is(sum, sum);',
    ]);
  });

  it('Python: assert x == x and self.assertEqual(x, x); assert x == y is a check', async () => {
    const py = `import unittest
from calc import add


def test_self():
    got = add(1, 2)
    assert got == got


def test_real():
    got = add(1, 2)
    assert got == 3
    assert add(1, 2) == add(2, 1)


class TestCalc(unittest.TestCase):
    def test_self(self):
        got = add(1, 2)
        self.assertEqual(got, got)
`;
    expect(await constant({ 'calc.py': 'def add(a, b):\n    return a + b\n', 'tests/test_calc.py': py })).toEqual([
      'tests/test_calc.py:7 test_self: compares a value with itself, a constant result: assert got == got',
      'tests/test_calc.py:19 TestCalc > test_self: compares a value with itself, a constant result: self.assertEqual(got, got)',
    ]);
  });
});

describe('L0: a constant beside real checks marks a path, and a constant that fails marks one that must not run', () => {
  it('Python: assertTrue(True) after an expected error with a real check in the else is no finding; alone it is', async () => {
    const py = `import unittest
from calc import parse, ParseError


class TestParse(unittest.TestCase):
    def test_tolerates_bad_input(self):
        try:
            value = parse("1 +")
        except ParseError:
            self.assertTrue(True)
        else:
            self.assertEqual(value, None)

    def test_must_raise(self):
        try:
            parse("(")
        except ParseError:
            self.assertTrue(True)
        else:
            self.assertTrue(False)

    def test_only_a_constant(self):
        parse("1")
        self.assertTrue(True)


def test_unreachable():
    try:
        parse(")")
    except ParseError:
        return
    assert False, "parse accepted a stray paren"
`;
    expect(
      await constant({
        'calc.py': 'class ParseError(Exception):\n    pass\n\ndef parse(s):\n    raise ParseError(s)\n',
        'tests/test_calc.py': py,
      }),
    ).toEqual(['tests/test_calc.py:24 TestParse > test_only_a_constant: asserts on a constant: self.assertTrue(True)']);
  });

  it('JS: expect(true).toBe(true) beside a real expect is no finding; alone, or beside a value compared with itself, it is', async () => {
    const js = `import { test, expect } from 'vitest';
import { parse } from '../src/calc.js';

test('tolerates bad input', () => {
  try {
    expect(parse('1 +')).toBe(null);
  } catch {
    expect(true).toBe(true);
  }
});

test('must throw', () => {
  try {
    parse('(');
  } catch {
    return;
  }
  expect(false).toBe(true);
});

test('only constants', () => {
  const v = parse('1');
  expect(true).toBe(true);
  expect(v).toBe(v);
});
`;
    expect(await constant({ 'src/calc.js': 'export const parse = (s) => s;\n', 'test/calc.test.js': js })).toEqual([
      'test/calc.test.js:23 only constants: asserts on a constant: expect(true).toBe(true);',
      'test/calc.test.js:24 only constants: compares a value with itself, a constant result: expect(v).toBe(v);',
    ]);
  });
});
