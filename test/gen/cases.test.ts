import { describe, expect, it } from 'vitest';
import { caseFor, casesOf, removeCases, reportedPath } from '../../src/engine/gen/cases/index.js';

describe('test cases with their full path, per language', () => {
  it('JS/TS: each case with its describe path; four same titles in four describes are four cases; removal takes an emptied describe with it', () => {
    const text = [
      "import { expect, it, describe } from 'vitest';",
      "describe('a', () => {",
      "  it('same title', () => {\n    expect(f(')')).toBe(1);\n  });",
      '});',
      "describe('b', () => {",
      "  describe('inner', () => {",
      "    it('same title', () => {\n      // a } brace in a comment\n      expect(`x${1}`).toBe('x1');\n    });",
      '  });',
      "  test('other', () => {\n    expect(1 + g()).toBe(2);\n  });",
      '});',
      '',
    ].join('\n');
    const { cases } = casesOf('t.test.ts', text);
    expect(cases.map((c) => [c.path.join(' > '), c.line])).toEqual([
      ['a > same title', 3],
      ['b > inner > same title', 9],
      ['b > other', 14],
    ]);
    const target = caseFor(cases, reportedPath({ id: 't.test.ts::b > inner > same title', name: 'same title' }, 'js'))!;
    expect(target.path).toEqual(['b', 'inner', 'same title']);
    const out = removeCases('t.test.ts', text, [target]);
    expect(out).toMatchObject({ removed: ['b > inner > same title'], left: 2 });
    expect(out.text).not.toMatch(/inner/);
    expect(out.text).toMatch(/describe\('a'[\s\S]*same title[\s\S]*describe\('b'[\s\S]*other/);
    const none = removeCases('t.test.ts', out.text, casesOf('t.test.ts', out.text).cases);
    expect(none.left).toBe(0);
    expect(none.text.trim()).toBe("import { expect, it, describe } from 'vitest';");
  });

  it('Python: a test class defined under a module-level try/else is a test class (hyperlink), one inside a function is not', () => {
    const text = [
      'try:',
      '    import hypothesis',
      'except ImportError:',
      '    pass',
      'else:',
      '    from hypothesis import given',
      '',
      '    class TestStrategies(HyperlinkTestCase):',
      '        @given(labels())',
      '        def test_labels(self, label):',
      '            assert label',
      '',
      '        def test_other(self):',
      '            def test_inner():',
      '                pass',
      '            class TestLocal:',
      '                def test_local(self):',
      '                    pass',
      '            assert True',
      '',
      'if True:',
      '    def test_under_if():',
      '        assert 1',
      '',
    ].join('\n');
    const { cases, groups } = casesOf('test/test_hypothesis.py', text);
    expect(cases.map((c) => [c.path.join('::'), c.line])).toEqual([
      ['TestStrategies::test_labels', 9],
      ['TestStrategies::test_other', 13],
      ['test_under_if', 22],
    ]);
    expect(groups.map((g) => g.path.join('::'))).toEqual(['TestStrategies']);
    const out = removeCases('test/test_hypothesis.py', text, [cases[0]!]);
    expect(out.left).toBe(2);
    expect(out.text).not.toMatch(/test_labels|@given\(labels/);
    expect(out.text).toMatch(/else:\n[\s\S]*class TestStrategies\(HyperlinkTestCase\):\n\s*def test_other/);
  });

  it('Python: functions and class methods (decorators, multi-line parametrize, docstrings), pytest ids with class and parametrize id', () => {
    const text = [
      'import pytest',
      '',
      '@pytest.mark.parametrize(',
      '    "x",',
      '    [1, 2],',
      ')',
      'def test_param(x):',
      '    """A docstring',
      'at column 0."""',
      '    assert x',
      '',
      '',
      'class TestThing:',
      '    def setup_method(self):',
      '        self.v = 1',
      '',
      '    def test_a(self):',
      '        assert self.v == 1',
      '',
      '    def test_b(self):',
      '        assert helper(self.v)',
      '',
      '',
      'class TestOther:',
      '    def test_a(self):',
      '        assert True',
      '',
      '',
      'def helper(v):',
      '    return v',
      '',
      '',
      'def test_local_type():',
      '    class TestDict(dict):',
      '        pass',
      '    assert isinstance(TestDict(), dict)',
      '',
    ].join('\n');
    const { cases } = casesOf('tests/test_t.py', text);
    expect(cases.map((c) => [c.path.join('::'), c.line])).toEqual([
      ['test_param', 3],
      ['TestThing::test_a', 17],
      ['TestThing::test_b', 20],
      ['TestOther::test_a', 25],
      ['test_local_type', 33],
    ]);
    // tests/test_t.py::TestOther > test_a is the other class's test_a, and test_param[2] is test_param.
    expect(
      caseFor(cases, reportedPath({ id: 'tests/test_t.py::TestOther > test_a', name: 'test_a' }, 'python'))!.line,
    ).toBe(25);
    expect(
      caseFor(cases, reportedPath({ id: 'tests/test_t.py::test_param[2]', name: 'test_param[2]' }, 'python'))!.line,
    ).toBe(3);
    const out = removeCases('tests/test_t.py', text.slice(0, text.indexOf('\n\ndef test_local_type')) + '\n', [
      cases[0]!,
      cases[3]!,
    ]);
    expect(out.left).toBe(2);
    expect(out.text).not.toMatch(/parametrize|test_param|TestOther/);
    expect(out.text).toMatch(
      /^import pytest\n\n\nclass TestThing:[\s\S]*def test_b\(self\):\n {8}assert helper\(self\.v\)\n\n\ndef helper\(v\):\n {4}return v\n+$/,
    );
  });

  it('Go: test functions and their literal subtests, matched by the names go test reports', () => {
    const text = [
      'package m',
      '',
      'import "testing"',
      '',
      '// TestAdd adds.',
      'func TestAdd(t *testing.T) {',
      '\tt.Run("small numbers", func(t *testing.T) {',
      '\t\tif Add(1, 2) != 3 {',
      '\t\t\tt.Error("}")',
      '\t\t}',
      '\t})',
      '\tt.Run("big", func(t *testing.T) {',
      '\t\tif Add(1e6, 1) != 1e6+1 {',
      '\t\t\tt.Error("no")',
      '\t\t}',
      '\t})',
      '}',
      '',
      'func TestTable(t *testing.T) {',
      '\tfor _, c := range cases {',
      '\t\tt.Run(c.name, func(t *testing.T) { check(t, c) })',
      '\t}',
      '}',
      '',
    ].join('\n');
    const { cases } = casesOf('m_test.go', text);
    expect(cases.map((c) => `${c.kind} ${c.path.join('/')}`)).toEqual([
      'test TestAdd',
      'test TestTable',
      'subtest TestAdd/small_numbers',
      'subtest TestAdd/big',
    ]);
    const sub = caseFor(
      cases,
      reportedPath({ id: 'example.com/m::TestAdd/small_numbers', name: 'TestAdd/small_numbers' }, 'go'),
    )!;
    expect(sub.path).toEqual(['TestAdd', 'small_numbers']);
    // A subtest without a literal name is its function.
    expect(caseFor(cases, ['TestTable', 'case_3'])!.path).toEqual(['TestTable']);
    const out = removeCases('m_test.go', text, [sub]);
    expect(out.text).not.toMatch(/small numbers/);
    expect(out.text).toMatch(/t\.Run\("big"/);
    expect(removeCases('m_test.go', text, [cases[0]!, cases[1]!]).text.trim()).toBe('package m');
  });
});

describe('a Go file after its tests left', () => {
  it('loses the imports nothing uses any more (go would not build it), and keeps the rest', async () => {
    const { pruneGoImports } = await import('../../src/engine/gen/cases/go.js');
    const text =
      'package m\n\nimport (\n\t"os"\n\t"strconv"\n\t"testing"\n\n\tqt "github.com/frankban/quicktest"\n)\n\nfunc TestA(t *testing.T) {\n\tqt.Assert(t, 1, qt.Equals, 1)\n}\n';
    expect(pruneGoImports(text)).toBe(
      'package m\n\nimport (\n\t"testing"\n\n\tqt "github.com/frankban/quicktest"\n)\n\nfunc TestA(t *testing.T) {\n\tqt.Assert(t, 1, qt.Equals, 1)\n}\n',
    );
    expect(pruneGoImports('package m\n\nimport "os"\n\nvar x = 1\n')).toBe('package m\n\nvar x = 1\n');
  });
});
