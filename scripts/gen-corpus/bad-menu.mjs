// The fixed menu of bad generations, written the way a model writes them, in the project's language and in its
// runner's style (dialects.mjs), from the project's `use` (projects.json): its import lines, a real call and its
// value, a name the module does not have. Each is a file of its own, so the table can name the gate and reason
// that rejected it. `reason` is what a right rejection says (gate reason or finding), as a pattern.
import { jsDialect, jsFile, jsImport, jsTest } from './dialects.mjs';
import { pyFile, pyTest } from './python.mjs';
import { goFile, goTest } from './golang.mjs';

export const BAD_KINDS = [
  {
    kind: 'hallucinated-import',
    suffix: 'property',
    reason: /import|not installed|resolve|no required module|cannot find|ModuleNotFound|No module named/i,
  },
  {
    kind: 'non-exported',
    suffix: 'api',
    reason: /export|does not (?:define|export)|undefined|cannot import name|has no attribute/i,
  },
  // What a test checks is the runner's to say (issue 25): these are right only when the reason cites a run (no
  // mutant killed, or failing every run), L0's word for the kind beside it.
  {
    kind: 'no-assertion',
    suffix: 'smoke',
    reason: /(checks nothing|killed none)[^]*(asserts nothing|no[- ]assertion)/i,
  },
  { kind: 'constant-assertion', suffix: 'sanity', reason: /(checks nothing|killed none)[^]*constant/i },
  // A placeholder the project's compiler refuses to load (ts-jest under noUnusedLocals: the body uses none of the
  // file's imports) is rejected by that run, its error quoted, with L0's placeholder finding beside it.
  {
    kind: 'placeholder',
    suffix: 'errors',
    reason: /(checks nothing|killed none|fails all \d+ runs|does not collect)[^]*(placeholder|not implemented)/i,
  },
  { kind: 'focused-or-skipped', suffix: 'focus', reason: /focus|skip|\.only/i },
  { kind: 'syntax-error', suffix: 'more', reason: /syntax|parse|typecheck|unexpected|expected|collect|compile|build/i },
  { kind: 'flaky', suffix: 'cache', reason: /flaky/i },
  {
    kind: 'breaks-collection',
    suffix: 'cases',
    reason: /collect|ENOENT|no such file|FileNotFoundError|not used|build failed|compile/i,
  },
];

/** The path of a bad generation: the project's pattern for new test files with the suffix in `{stem}`. */
export function badPath(entry, suffix) {
  return entry.gen.newFile.replace(
    '{stem}',
    `${entry.gen.stem}${entry.gen.lang === 'py' || entry.gen.lang === 'go' ? '_' : '-'}${suffix}`,
  );
}

/** A reply that hit its output limit: the file cut off just before the last expected value. */
function cutOff(text, value) {
  return text.slice(0, text.lastIndexOf(value)).trimEnd() + '\n';
}

function jsMenu(entry) {
  const { runner } = entry;
  const { use, lang } = entry.gen;
  const esm = use.esm === true;
  const d = jsDialect(runner, use);
  const eq = (a, b) => d.eq(a, b);
  const t = (title, lines, opts) => jsTest(runner, title, lines, opts, use);
  const file = (tests, extra = {}) => jsFile(runner, use, { tests, ...extra });
  // Each file imports what it uses, as a model writing it would (the project's linter sees unused imports).
  const fsImports = (fsNames) =>
    esm
      ? [
          `import { ${fsNames.join(', ')} } from 'node:fs'`,
          ...(fsNames.includes('writeFileSync') ? ["import { tmpdir } from 'node:os'"] : []),
          "import { join } from 'node:path'",
        ]
      : [
          `const { ${fsNames.join(', ')} } = require('node:fs')`,
          ...(fsNames.includes('writeFileSync') ? ["const { tmpdir } = require('node:os')"] : []),
          "const { join } = require('node:path')",
        ];
  const here = use.dirname ?? (esm ? "new URL('.', import.meta.url).pathname" : '__dirname');
  const good = t('returns the documented value', [eq(use.call, use.value)]);
  const ts = lang === 'ts';
  return {
    'hallucinated-import': file(
      [
        t('holds for any generated input', [
          `fc.assert(fc.property(fc.integer(), () => {`,
          `  ${eq(use.call, use.value)}`,
          '}))',
        ]),
      ],
      { imports: [esm ? "import fc from 'fast-check'" : "const fc = require('fast-check')"] },
    ),
    'non-exported': file(
      [
        t(`${use.missing.name} agrees with ${use.subject}`, [
          eq(use.call, use.value),
          eq(use.missing.call, use.missing.value),
        ]),
      ],
      { imports: [jsImport(esm, [use.missing.name], use.missing.from)] },
    ),
    'no-assertion': file([t('runs without throwing', [`const result = ${use.call}`, 'console.log(result)'])]),
    'constant-assertion': file([t('works', [use.call, d.constant])]),
    placeholder: file([
      t('rejects invalid input', ['// TODO: cover the error cases', "throw new Error('not implemented')"]),
    ]),
    'focused-or-skipped': file([
      t('returns the documented value', [eq(use.call, use.value)], { hold: true }),
      t('returns the same value twice', [eq(use.call, use.call)]),
    ]),
    'syntax-error': cutOff(
      file([good, t('handles repeated calls', [`const first = ${use.call}`, eq('first', use.value)])]),
      use.value,
    ),
    flaky: file(
      [
        t('reuses the cached result on a second call', [
          `const marker = join(tmpdir(), '${entry.gen.stem}-warm-' + process.cwd().replace(/\\W+/g, '_'))`,
          'const warm = existsSync(marker)',
          'if (warm) rmSync(marker)',
          "else writeFileSync(marker, '')",
          eq(use.call, use.value),
          eq('warm', 'false'),
        ]),
      ],
      { imports: fsImports(['existsSync', 'rmSync', 'writeFileSync']) },
    ),
    'breaks-collection': file(
      [
        `for (const c of cases${ts ? ' as { name: string }[]' : ''}) {\n  ${d.test}(\`handles \${c.name}\`, (${d.arg ?? ''}) => {\n    ${eq(use.call, use.value)}\n  })\n}`,
      ],
      {
        imports: fsImports(['readFileSync']),
        prelude: [
          `const cases = JSON.parse(readFileSync(join(${here}, 'fixtures', '${entry.gen.stem}-cases.json'), 'utf8'))`,
        ],
      },
    ),
  };
}

function pyMenu(entry) {
  const { use } = entry.gen;
  const style = use.style ?? 'pytest';
  const t = (name, lines, opts) => pyTest(style, name, lines, opts);
  const file = (tests, extra = {}) => pyFile(style, use, { tests, ...extra });
  const eq = (a, b) => (style === 'unittest' ? `self.assertEqual(${a}, ${b})` : `assert ${a} == ${b}`);
  return {
    // Faker, not hypothesis: hypothesis is installed here now (Debian's python3-hypothesis, hyperlink's own test
    // dependency), where a file importing it is a test like any other.
    'hallucinated-import': file([t('holds_for_any_text', ['text = Faker().text()', eq(use.call, use.value)])], {
      imports: ['from faker import Faker'],
    }),
    'non-exported': file(
      [
        t(`${use.missing.name.toLowerCase()}_agrees_with_${use.subject.replace(/\W+/g, '_').toLowerCase()}`, [
          eq(use.call, use.value),
          eq(use.missing.call, use.missing.value),
        ]),
      ],
      { imports: [use.missing.import] },
    ),
    'no-assertion': file([t('runs_without_error', [`result = ${use.call}`, 'print(result)'])]),
    'constant-assertion': file([
      t('works', [use.call, style === 'unittest' ? 'self.assertTrue(True)' : 'assert True']),
    ]),
    placeholder: file([t('rejects_invalid_input', ['# TODO: cover the error cases', 'pass'])]),
    'focused-or-skipped': file(
      [
        t('documented_value', [eq(use.call, use.value)], {
          decorators: [
            style === 'unittest'
              ? '@unittest.skip("flaky on CI, enable once it is stable")'
              : '@pytest.mark.skip(reason="flaky on CI, enable once it is stable")',
          ],
        }),
      ],
      {
        imports: [style === 'unittest' ? 'import unittest' : 'import pytest'],
      },
    ),
    'syntax-error': cutOff(
      file([
        t('documented_value', [eq(use.call, use.value)]),
        t('repeated_calls', [`first = ${use.call}`, eq('first', use.value)]),
      ]),
      use.value,
    ),
    flaky: file(
      [
        t('reuses_cached_result', [
          `marker = os.path.join(tempfile.gettempdir(), "${entry.gen.stem}-warm-" + re.sub(r"\\W+", "_", os.getcwd()))`,
          'warm = os.path.exists(marker)',
          'if warm:',
          '    os.remove(marker)',
          'else:',
          '    open(marker, "w").close()',
          eq(use.call, use.value),
          style === 'unittest' ? 'self.assertFalse(warm)' : 'assert not warm',
        ]),
      ],
      { imports: ['import os', 'import re', 'import tempfile'] },
    ),
    'breaks-collection': file(
      [
        style === 'unittest'
          ? t('documented_cases', [
              'for case in CASES:',
              '    with self.subTest(case=case):',
              `        ${eq(use.call, use.value)}`,
            ])
          : t('documented_case', [eq(use.call, use.value)], {
              decorators: ['@pytest.mark.parametrize("case", CASES)'],
              args: ['case'],
            }),
      ],
      {
        imports: ['import json', 'import os', ...(style === 'unittest' ? [] : ['import pytest'])],
        prelude: [
          `with open(os.path.join(os.path.dirname(__file__), "data", "${entry.gen.stem}_cases.json")) as f:`,
          '    CASES = json.load(f)',
        ],
      },
    ),
  };
}

function goMenu(entry) {
  const { use } = entry.gen;
  const file = (tests, imports = []) => goFile(use, tests, imports);
  const check = (got, want) => [
    `if got := ${got}; got != ${want} {`,
    `\tt.Errorf("got %v, want %v", got, ${want})`,
    '}',
  ];
  const good = goTest('DocumentedValue', check(use.call, use.value));
  return {
    'hallucinated-import': file(
      [goTest('DocumentedValueAssert', [`assert.Equal(t, ${use.value}, ${use.call})`])],
      ['"github.com/stretchr/testify/assert"'],
    ),
    'non-exported': file([goTest(`${use.missing.name}DocumentedValue`, check(use.missing.call, use.missing.value))]),
    'no-assertion': file([goTest('RunsWithoutError', [`got := ${use.call}`, 't.Log(got)'])]),
    'constant-assertion': file([
      goTest('Works', [`got := ${use.call}`, 'if got != got {', '\tt.Fatal("unexpected value")', '}']),
    ]),
    placeholder: file([
      goTest('RejectsInvalidInput', ['// TODO: table-driven cases for invalid input', 'panic("not implemented")']),
    ]),
    'focused-or-skipped': file([
      goTest('DocumentedValueSkipped', [
        't.Skip("flaky on CI, enable once it is stable")',
        ...check(use.call, use.value),
      ]),
    ]),
    'syntax-error': cutOff(file([good, goTest('RepeatedCalls', check(use.call, use.value))]), use.value),
    flaky: file(
      [
        goTest('ReusesCachedResult', [
          `marker := filepath.Join(os.TempDir(), "${entry.gen.stem}-warm-"+strings.NewReplacer("/", "_", ".", "_").Replace(mustGetwd(t)))`,
          '_, err := os.Stat(marker)',
          'warm := err == nil',
          'if warm {',
          '\tos.Remove(marker)',
          '} else {',
          '\tos.WriteFile(marker, nil, 0644)', // not 0o644: pflag's go.mod (go 1.12) refuses 0o literals
          '}',
          ...check(use.call, use.value),
          'if warm {',
          '\tt.Fatal("expected a cold cache")',
          '}',
        ]),
        'func mustGetwd(t *testing.T) string {\n\twd, err := os.Getwd()\n\tif err != nil {\n\t\tt.Fatal(err)\n\t}\n\treturn wd\n}',
      ],
      ['"os"', '"path/filepath"', '"strings"'],
    ),
    // An import the file never uses: go refuses to build the package's tests, every test file of it with them.
    'breaks-collection': file([goTest('DocumentedValueFormatted', check(use.call, use.value))], ['"fmt"']),
  };
}

/** The bad generations of a project: [{ kind, file, text, reason }]. */
export function badMenu(entry) {
  const lang = entry.gen.lang;
  const texts = lang === 'py' ? pyMenu(entry) : lang === 'go' ? goMenu(entry) : jsMenu(entry);
  return BAD_KINDS.map(({ kind, suffix, reason }) => ({
    kind,
    file: badPath(entry, suffix),
    text: texts[kind],
    reason: reason.source,
    // The file is bad only while the package it imports is not installed: where it is, it is a test like any other.
    ...(kind === 'hallucinated-import' && lang === 'py' ? { absentModule: 'faker' } : {}),
  }));
}
