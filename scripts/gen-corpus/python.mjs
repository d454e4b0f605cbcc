// Python test files for the bad generations: plain pytest functions, or methods of a unittest.TestCase class
// where the project writes its tests that way (`use.style: "unittest"`).

/** One test: `def test_<name>(...)` with its decorators, as a function or as a method (indented by pyFile). */
export function pyTest(style, name, lines, { decorators = [], args = [] } = {}) {
  const params = style === 'unittest' ? ['self', ...args] : args;
  return [...decorators, `def test_${name}(${params.join(', ')}):`, ...lines.map((l) => `    ${l}`)].join('\n');
}

/** A whole file: the project's import lines, module-level lines, then the tests (in a TestCase class for unittest). */
export function pyFile(style, use, { imports = [], prelude = [], tests }) {
  // The project's own way of getting unittest (jmespath's `from tests import unittest`) stands for `import unittest`.
  const own = use.header.split('\n');
  const extra = imports.filter((l) => !(l === 'import unittest' && own.some((o) => /\bimport unittest\b/.test(o))));
  const head = [...new Set([...extra, ...own])].filter(Boolean);
  // Standard imports first, as isort would put them; the project's own imports keep their order.
  const std = head.filter((l) => /^import (os|re|json|tempfile|unittest|pytest)\b/.test(l)).sort();
  const rest = head.filter((l) => !std.includes(l));
  const body =
    style === 'unittest'
      ? `class Test${use.subject.replace(/(^|[^a-zA-Z0-9])([a-zA-Z0-9])/g, (_, __, c) => c.toUpperCase())}Generated(unittest.TestCase):\n${tests.map((t) => t.replace(/^(?=.)/gm, '    ')).join('\n\n')}`
      : tests.join('\n\n\n');
  const needsUnittest =
    style === 'unittest' && !head.some((l) => /\bimport unittest\b/.test(l)) ? ['import unittest'] : [];
  return `${[...needsUnittest, ...std].join('\n')}\n${rest.length ? `\n${rest.join('\n')}\n` : ''}${prelude.length ? `\n${prelude.join('\n')}\n` : ''}\n\n${body}\n`;
}
