/** A pattern the guard counts in added and removed lines, with the words it reports. */
export interface Marker {
  re: RegExp;
  what: string;
}

/** Skip/only/todo markers specific enough to count in any file (a Rust unit test lives in src/). */
export const SKIP_MARKERS: readonly Marker[] = [
  {
    re: /\b(it|test|describe|suite|context|specify|bench)\.(skip|only|todo|skipIf|runIf|fixme)\b/,
    what: 'a .skip/.only/.todo marker',
  },
  {
    re: /(^|[^\w.])(xit|xtest|xdescribe|xcontext|xspecify|xsuite|fit|fdescribe|fcontext)\s*\(/,
    what: 'an x-/f-prefixed test (xit, xdescribe, fit...)',
  },
  { re: /@pytest\.mark\.(skip|skipif|xfail)\b/, what: '@pytest.mark.skip/xfail' },
  { re: /\bpytest\.(skip|xfail)\s*\(/, what: 'pytest.skip()' },
  { re: /@unittest\.(skip|skipIf|skipUnless|expectedFailure)\b|\bself\.skipTest\s*\(/, what: 'a unittest skip' },
  { re: /\bt\.(Skip|SkipNow|Skipf)\s*\(/, what: 't.Skip()' },
  { re: /#\[ignore\b/, what: '#[ignore]' },
  { re: /@(Disabled|Ignore)\b/, what: '@Disabled/@Ignore' },
  { re: /\bmarkTestSkipped\s*\(|\$this->markTestIncomplete\s*\(/, what: 'a PHPUnit skip' },
];

/** Markers that are too generic outside test files (`this.skip()`, node:test's `{ skip: true }`). */
export const TEST_FILE_SKIP_MARKERS: readonly Marker[] = [
  { re: /\b(this|t|ctx|context)\.(skip|todo)\s*\(/, what: 'a runtime skip (this.skip(), t.skip())' },
  { re: /\{[^}]*\b(skip|todo|only)\s*:\s*(true|['"`])/, what: 'a { skip/todo/only } test option' },
  { re: /(^|[^\w.])(skip|pending)\s*\(\s*['"`]/, what: 'skip()/pending()' },
];

/** One test case declared: `it(`, `test.skip(`, `def test_`, `func TestX(`, `#[test]`... (a modifier keeps it the same case). */
export const TEST_CASE =
  /(^|[^\w.])(it|test|specify|scenario|xit|xtest|fit)(\.\w+)*\s*\(\s*['"`]|\bdef test_\w+|\bfunc Test\w+\s*\(|#\[(tokio::)?test\]|@Test\b|\bit ['"]/;

/** One assertion: expect, assert*, should, t.equal and kin, Go's t.Error/Fatal, Rust's assert!. */
export const ASSERTION =
  /\bexpect\s*\(|\bassert(\.\w+|_\w+!?|!|\w*)?\s*\(|^\s*assert\s|\.should\b|\bt\.(equal|equals|deepEqual|notEqual|same|strictSame|is|not|ok|notOk|true|false|truthy|falsy|throws|rejects|match|deepStrictEqual|strictEqual|fail)\s*\(|\bt\.(Error|Errorf|Fatal|Fatalf)\s*\(|\bself\.assert\w*\s*\(|\bassert(Equals|True|False|Same|That|Null|NotNull)\s*\(/;

const LITERAL = String.raw`(?:true|false|null|undefined|nil|None|True|False|-?\d+(?:\.\d+)?|'[^']*'|"[^"]*"|\[\s*\]|\{\s*\})`;

// A plain operand (a name, a field, an index), never a call: `f() == f()` can be a real check of determinism. A
// literal keyword (`true`, `None`) is no name: `assert.equal(true, true)` is a constant against a constant.
const OPERAND = String.raw`(?<v>(?!(?:true|false|null|undefined|nil|None|True|False)\b)[A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*|\[[^\]\n]*\])*)`;

/**
 * Assertions comparing a value with itself, true whatever the code does: Go's `if got != got {`, `expect(x).toBe(x)`,
 * `assert.equal(x, x)`, `t.is(x, x)`, `assert x == x`, `self.assertEqual(x, x)`, testify's `assert.Equal(t, x, x)`.
 */
export const SELF_COMPARISONS: readonly RegExp[] = [
  new RegExp(String.raw`\bif\s+(?:[^;{\n]*;\s*)?${OPERAND}\s*(?:!=|==)\s*\k<v>\s*\{`),
  new RegExp(String.raw`\breflect\.DeepEqual\(\s*${OPERAND}\s*,\s*\k<v>\s*\)`),
  new RegExp(
    String.raw`\b(?:assert|require)\.(?:Equal|EqualValues|Exactly|Same)\(\s*t\s*,\s*${OPERAND}\s*,\s*\k<v>\s*[,)]`,
  ),
  new RegExp(
    String.raw`\bexpect\s*\(\s*${OPERAND}\s*\)\s*\.\s*(?:to\s*\.\s*(?:be\s*\.\s*|deep\s*\.\s*)?(?:equal|eql)|toBe|toEqual|toStrictEqual)\s*\(\s*\k<v>\s*\)`,
  ),
  new RegExp(
    String.raw`\bassert\.(?:equal|strictEqual|deepEqual|deepStrictEqual)\s*\(\s*${OPERAND}\s*,\s*\k<v>\s*[,)]`,
  ),
  new RegExp(String.raw`\bt\.(?:is|deepEqual|same|equal|strictSame)\s*\(\s*${OPERAND}\s*,\s*\k<v>\s*[,)]`),
  new RegExp(String.raw`^\s*assert\s+${OPERAND}\s*(?:==|is)\s*\k<v>\s*(?:,.*)?$`),
  new RegExp(String.raw`\bself\.assert(?:Equal|Equals|Is)\s*\(\s*${OPERAND}\s*,\s*\k<v>\s*[,)]`),
];

/**
 * Assertions that check nothing: a constant alone (`assert True`, `t.ok(1)`), or a constant against a constant.
 * A literal compared with computed code is a real check in either order: unittest's, node:assert's and many
 * projects' tests put the expected value first (`self.assertEqual('<a>1</a>', unparse(obj))`).
 */
export const TRIVIAL_ASSERTIONS: readonly RegExp[] = [
  new RegExp(
    String.raw`\bexpect\s*\(\s*${LITERAL}\s*\)\s*\.\s*(not\s*\.\s*)?(toBe|toEqual|toStrictEqual|toBeTruthy|toBeFalsy|toBeDefined|toBeUndefined|toBeNull|to\.(be|equal|eql|deep))`,
  ),
  new RegExp(String.raw`\bassert(\.(ok|isTrue|isOk))?\s*\(\s*${LITERAL}\s*[,)]`),
  new RegExp(
    String.raw`\bassert\.(equal|strictEqual|deepEqual|deepStrictEqual|notEqual)\s*\(\s*${LITERAL}\s*,\s*${LITERAL}\s*[,)]`,
  ),
  new RegExp(String.raw`\bt\.(ok|true|truthy|pass)\s*\(\s*${LITERAL}\s*[,)]`),
  new RegExp(String.raw`\bt\.(equal|is|same|deepEqual)\s*\(\s*${LITERAL}\s*,\s*${LITERAL}\s*[,)]`),
  new RegExp(String.raw`^\s*assert\s+${LITERAL}\s*(==\s*${LITERAL}\s*)?(,.*)?$`),
  new RegExp(String.raw`\bself\.assertTrue\s*\(\s*${LITERAL}\s*[,)]`),
  new RegExp(String.raw`\bself\.assert(Equal|Is)\s*\(\s*${LITERAL}\s*,\s*${LITERAL}\s*[,)]`),
  new RegExp(String.raw`\bassert!\s*\(\s*${LITERAL}\s*[,)]`),
  new RegExp(String.raw`\bassert_eq!\s*\(\s*${LITERAL}\s*,\s*${LITERAL}\s*[,)]`),
  /\bt\.pass\s*\(/,
  ...SELF_COMPARISONS,
];

/**
 * Constant assertions that fail wherever they are reached: `self.assertTrue(False)`, `assert False`,
 * `assert.ok(false)`. They mark a path that must not run (the `else:` after a `try` that must raise), a real check.
 */
const FAILS_WHEN_REACHED: readonly RegExp[] = [
  /\bassert(?:\.(?:ok|isTrue|isOk))?\s*\(\s*(?:false|0|null|undefined)\s*[,)]/,
  /\bt\.(?:ok|true|truthy)\s*\(\s*(?:false|0|null|undefined)\s*[,)]/,
  /\bself\.assertTrue\s*\(\s*(?:False|None|0)\s*[,)]/,
  /^\s*assert\s+(?:False|None|0)\s*(?:,.*)?$/,
  /\bassert!\s*\(\s*false\s*[,)]/,
  /\bexpect\s*\(\s*false\s*\)\s*\.\s*(?:toBe\s*\(\s*true\s*\)|toBeTruthy\s*\()/,
  /\bexpect\s*\(\s*true\s*\)\s*\.\s*(?:toBe\s*\(\s*false\s*\)|toBeFalsy\s*\()/,
];

/** An assertion that passes whatever the code does (a constant, or a value compared with itself). */
export function isTrivialAssertion(line: string): boolean {
  return TRIVIAL_ASSERTIONS.some((re) => re.test(line)) && !FAILS_WHEN_REACHED.some((re) => re.test(line));
}

/** Keys that exclude or narrow tests in a test configuration file. */
export const EXCLUSION_KEYS =
  /\b(testPathIgnorePatterns|modulePathIgnorePatterns|testMatch|testRegex|roots|exclude|excludes|include|testIgnore|testDir|ignore|ignored|spec|specs|norecursedirs|collect_ignore(_glob)?|testpaths|python_files|python_functions|addopts|deselect)\b|--ignore\b|--deselect\b|--exclude\b|--testPathIgnorePatterns\b|--grep\b|-k\s/;

/** How many of the lines match the pattern. */
export function count(lines: readonly string[], re: RegExp): number {
  return lines.filter((l) => re.test(l)).length;
}
