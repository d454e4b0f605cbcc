// How a test is written for each runner of the generation corpus: the test function, its assertions, focus and
// skip, and the imports a file of that runner starts with. The bad generations (bad-menu.mjs) are written in
// these forms, so each reads like the project's own tests.

// `hold`: how a model parks a test: focus (`.only`) where the runner honours it in a plain run, else a skip.
const jsStyle = {
  vitest: {
    test: 'it',
    eq: (a, b) => `expect(${a}).toEqual(${b})`,
    constant: 'expect(true).toBe(true)',
    hold: 'only',
    wrap: true,
    header: "import { describe, expect, it } from 'vitest'",
  },
  jest: {
    test: 'it',
    eq: (a, b) => `expect(${a}).toEqual(${b})`,
    constant: 'expect(true).toBe(true)',
    hold: 'only',
    wrap: true,
    header: '',
  },
  mocha: {
    test: 'it',
    eq: (a, b) => `assert.deepStrictEqual(${a}, ${b})`,
    constant: 'assert.ok(true)',
    hold: 'only',
    wrap: true,
    header: '',
  },
  'node-test': {
    test: 'test',
    eq: (a, b) => `assert.deepStrictEqual(${a}, ${b})`,
    constant: 'assert.ok(true)',
    hold: 'skip-option',
    wrap: false,
    header: '',
  },
  ava: {
    test: 'test',
    eq: (a, b) => `t.deepEqual(${a}, ${b})`,
    constant: 't.true(true)',
    hold: 'only',
    wrap: false,
    header: '',
    arg: 't',
  },
};

/**
 * The JS/TS dialect of a runner; `esm` picks import syntax for the helper modules a bad test brings in. A project's
 * `use.dialect` overrides it where its tests differ from the runner's usual form (zod's are top-level `test()` calls).
 */
export function jsDialect(runner, use = {}) {
  const style = jsStyle[runner];
  if (!style) throw new Error(`no JS dialect for runner ${runner}`);
  return { ...style, ...(use.dialect ?? {}) };
}

/** `import { a, b } from 'm'` or `const { a, b } = require('m')`. */
export function jsImport(esm, names, from) {
  return esm ? `import { ${names.join(', ')} } from '${from}'` : `const { ${names.join(', ')} } = require('${from}')`;
}

/** A whole JS/TS test file: the project's header lines, then the tests, wrapped in a describe where the runner has one. */
export function jsFile(runner, use, { imports = [], prelude = [], tests }) {
  const d = jsDialect(runner, use);
  const head = [use.header ?? d.header, ...imports].filter(Boolean).join('\n');
  const body = tests.join('\n\n');
  const indented = d.wrap ? `describe('${use.subject}', () => {\n${body.replace(/^(?=.)/gm, '  ')}\n})` : body;
  return `${head}\n${prelude.length ? `\n${prelude.join('\n')}\n` : ''}\n${indented}\n`;
}

/** One JS test: `it('title', () => {...})` in the runner's form; `hold` parks it (focus or skip). */
export function jsTest(runner, title, lines, { hold = false, async = false } = {}, use = {}) {
  const d = jsDialect(runner, use);
  const fn = `${async ? 'async ' : ''}(${d.arg ?? ''}) => {\n${lines.map((l) => (l ? `  ${l}` : '')).join('\n')}\n}`;
  if (hold && d.hold === 'skip-option')
    return `${d.test}('${title}', { skip: 'flaky on CI, enable once it is stable' }, ${fn})`;
  return `${d.test}${hold ? '.only' : ''}('${title}', ${fn})`;
}
