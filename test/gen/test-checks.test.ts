import { describe, expect, it } from 'vitest';
import { casesOf, languageOf } from '../../src/engine/gen/cases/index.js';
import { testChecks } from '../../src/engine/gen/test-checks.js';

/** Each case of the file with what it checks, keyed by its path. */
function checksOf(file: string, text: string): Map<string, string[]> {
  return new Map(casesOf(file, text).cases.map((c) => [c.path.join(' > '), testChecks(languageOf(file)!, c)]));
}

describe('what a test checks (the quality gate tells a copy from the same assertion over other data)', () => {
  it("JS: @fastify/merge-json-schemas' tests, the same multi-line deepStrictEqual over other schemas, differ; a copy under another title, reformatted and commented, does not", () => {
    const checks = checksOf(
      'test/properties.test.js',
      [
        "test('should merge two equal property schemas', () => {",
        "  const schema1 = { type: 'object', properties: { foo: { type: 'string' } } }",
        '  const mergedSchema = mergeSchemas([schema1, schema1], { defaultResolver })',
        '  assert.deepStrictEqual(mergedSchema, {',
        "    type: 'object',",
        "    properties: { foo: { type: 'string' } }",
        '  })',
        '})',
        '',
        "test('should merge two different sets of property schemas', () => {",
        "  const schema1 = { type: 'object', properties: { foo: { type: 'string' } } }",
        '  const mergedSchema = mergeSchemas([schema1, schema1], { defaultResolver })',
        '  assert.deepStrictEqual(mergedSchema, {',
        "    type: 'object',",
        "    properties: { foo: { type: 'number' } }",
        '  })',
        '})',
        '',
        "test('a copy', () => {",
        '  // the same test again',
        "  const schema1 = {type: 'object', properties: {foo: {type: 'string'}}};",
        '  const mergedSchema = mergeSchemas([schema1, schema1], {defaultResolver});',
        "  assert.deepStrictEqual(mergedSchema, { type: 'object', properties: { foo: { type: 'string', }, }, });",
        '})',
      ].join('\n'),
    );
    const equal = checks.get('should merge two equal property schemas')!;
    expect(equal).toHaveLength(1);
    expect(checks.get('should merge two different sets of property schemas')).not.toEqual(equal);
    expect(checks.get('a copy')).toEqual(equal);
  });

  it("Python: xmltodict's round trip over another obj differs; a string's inner spaces and a `#` in it are kept; a `with pytest.raises` block is part of its check", () => {
    const checks = checksOf(
      'tests/test_dicttoxml.py',
      [
        'class DictToXMLTestCase(unittest.TestCase):',
        '    def test_root(self):',
        "        obj = {'a': None}",
        '        self.assertEqual(obj, parse(unparse(obj)))',
        '',
        '    def test_simple_cdata(self):',
        "        obj = {'a': 'b'}  # other data",
        '        self.assertEqual(obj, parse(unparse(obj)))',
        '',
        '    def test_spaces(self):',
        "        obj = {'a': 'b #c'}",
        '        self.assertEqual(obj, parse(unparse(obj)))',
        '',
        '    def test_spaces_more(self):',
        "        obj = {'a': 'b  #c'}",
        '        self.assertEqual(obj, parse(unparse(obj)))',
        '',
        '',
        'def test_raises_a():',
        '    with pytest.raises(ValueError):',
        "        parse('<a')",
        '',
        '',
        'def test_raises_b():',
        '    with pytest.raises(ValueError):',
        "        parse('<b')",
      ].join('\n'),
    );
    const all = [...checks.values()].map((c) => JSON.stringify(c));
    expect(new Set(all).size).toBe(all.length);
    expect(checks.get('test_raises_a')![0]).toMatch(/parse\('<a'\)/);
  });

  it('a test asserting through a helper of its file checks its whole body: a copy is the same, other data is not', () => {
    const checks = checksOf(
      'tests/test_h.py',
      [
        'def test_a():',
        "    roundtrip('a = 1')",
        '',
        '',
        'def test_b():',
        "    roundtrip('a = 2')",
        '',
        '',
        'def test_c():',
        '    # the same',
        "    roundtrip('a = 1')",
      ].join('\n'),
    );
    expect(checks.get('test_a')).toHaveLength(1);
    expect(checks.get('test_b')).not.toEqual(checks.get('test_a'));
    expect(checks.get('test_c')).toEqual(checks.get('test_a'));
  });

  it("Python: a test's span ends where its dedent('''...''') call closes (it took in every later test of xmltodict's file)", () => {
    const text = [
      'class T(unittest.TestCase):',
      '    def test_list_expand_iter(self):',
      "        obj = {'a': {'b': [['1', '2'], ['3',]]}}",
      "        exp_xml = dedent('''\\",
      '        <?xml version="1.0" encoding="utf-8"?>',
      "        <a><b><item>1</item></b></a>''')",
      '        self.assertEqual(exp_xml, unparse(obj, expand_iter="item"))',
      '',
      '    def test_generator(self):',
      "        self.assertEqual('<a/>', unparse({'a': None}))",
    ].join('\n');
    const cases = casesOf('tests/test_x.py', text).cases;
    expect(cases.map((c) => c.path.join(' > '))).toEqual(['T > test_list_expand_iter', 'T > test_generator']);
    expect(cases[0]!.text).toMatch(/expand_iter="item"\)\)$/);
    expect(cases[0]!.text).not.toMatch(/test_generator/);
  });

  it('Go: subtests with the same assertion over other values differ; a parametrize id or a subtest named at run time tells apart cases of one text', () => {
    const checks = checksOf(
      'calc_test.go',
      [
        'func TestClamp(t *testing.T) {',
        '\tt.Run("below", func(t *testing.T) {',
        '\t\tif got := Clamp(-5, 0, 10); got != 0 {',
        '\t\t\tt.Errorf("got %d", got)',
        '\t\t}',
        '\t})',
        '\tt.Run("above", func(t *testing.T) {',
        '\t\tif got := Clamp(50, 0, 10); got != 10 {',
        '\t\t\tt.Errorf("got %d", got)',
        '\t\t}',
        '\t})',
        '}',
      ].join('\n'),
    );
    expect(checks.get('TestClamp > below')).not.toEqual(checks.get('TestClamp > above'));
    const span = {
      name: 'test_answer',
      text: 'def test_answer(value, expected):\n    assert clamp(value, 0, 10) == expected\n',
    };
    expect(testChecks('python', span, 'test_answer[below]')).not.toEqual(
      testChecks('python', span, 'test_answer[above]'),
    );
  });
});
