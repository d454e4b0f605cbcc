// Go test files for the bad generations: the project's package clause, an import block, `func TestX(t *testing.T)`.

/** One test function. */
export function goTest(name, lines) {
  return `func Test${name}(t *testing.T) {\n${lines.map((l) => `\t${l}`).join('\n')}\n}`;
}

/** A whole file: `package` as the project's tests declare it, "testing" and the extra imports, then the tests. */
export function goFile(use, tests, imports = []) {
  const all = ['"testing"', ...(use.imports ?? []), ...imports];
  return `${use.package}\n\nimport (\n${[...new Set(all)]
    .sort()
    .map((i) => `\t${i}`)
    .join('\n')}\n)\n\n${tests.join('\n\n')}\n`;
}
