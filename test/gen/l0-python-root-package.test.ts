// L0's Python import check on a project whose root is itself a package (an installed package checked out as
// itself: its own module may share a name with a library, as hyperlink's hypothesis.py does). Which of the two an
// import gets depends on how the runner is started, so the check reports only what both resolutions agree on.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pythonImportFindings } from '../../src/engine/gen/l0/python-imports.js';

const parent = mkdtempSync(join(tmpdir(), 'fixcycle-l0-pkg-'));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

describe('python imports when the project root is a package', () => {
  it('leaves an import of a library that shares a name with a module of the project to the runner, and still reports what neither defines; a fallback import in an ImportError handler is no finding', async () => {
    const root = join(parent, 'mypkg');
    mkdirSync(join(root, 'test'), { recursive: true });
    writeFileSync(join(root, '__init__.py'), '');
    // The project's own module named like the standard library's textwrap, without its dedent.
    writeFileSync(join(root, 'textwrap.py'), 'def wrap_all(text):\n    return text\n');
    // And one named like a library package, imported with one of that package's submodules (hypothesis.strategies).
    writeFileSync(join(root, 'email.py'), 'def address():\n    return "a@b"\n');
    writeFileSync(join(root, 'test', '__init__.py'), '');
    writeFileSync(
      join(root, 'test', 'test_wrap.py'),
      'from textwrap import dedent\nfrom textwrap import nothing_defined_anywhere\nfrom email import mime, message_from_string\nfrom mypkg.textwrap import wrap_all, not_here\n' +
        'try:\n    from unittest.mock import patch\nexcept ImportError:\n    from mock_that_is_not_installed import patch\n',
    );
    const r = await pythonImportFindings('python3', root, ['test/test_wrap.py']);
    expect(r.ran, r.why).toBe(true);
    const messages = r.findings.map((f) => f.message);
    expect(messages.some((m) => m.includes('{ dedent }'))).toBe(false);
    expect(
      messages.filter((m) => m.includes('"email"')),
      messages.join('; '),
    ).toEqual([]);
    expect(messages.some((m) => m.includes('{ nothing_defined_anywhere }'))).toBe(true);
    expect(messages.some((m) => m.includes('{ not_here }'))).toBe(true);
    // An ImportError handler's fallback import runs only where the first one fails.
    expect(messages.some((m) => m.includes('mock_that_is_not_installed'))).toBe(false);
  });
});
