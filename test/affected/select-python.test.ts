import { afterAll, describe, expect, it } from 'vitest';
import { findPythonImports } from '../../src/engine/affected/py-imports.js';
import { selectAffectedTests } from '../../src/engine/affected/index.js';
import { makeProject, removeProjects } from './project.js';

const made: string[] = [];
afterAll(() => removeProjects(made));

const select = (cwd: string, changedFiles: string[], lastFailedFiles: string[] = []) =>
  selectAffectedTests({ cwd, runner: 'pytest', changedFiles, lastFailedFiles });

describe('findPythonImports', () => {
  it('reads import and from-import statements and ignores strings and comments', () => {
    const source = [
      'import os, pkg.core as core',
      'from pkg.util import (',
      '    helper,  # import fake.comment',
      '    other as o,',
      ')',
      'from . import sibling',
      'from ..parent.mod import thing',
      '"""',
      'import fake.docstring',
      '"""',
      "text = 'from fake.string import x'",
      "raw = rb'import fake.bytes'",
      'try: import optional.dep',
      'except ImportError: pass',
      'x = 1; import after.semicolon',
      'from long.line \\',
      '    import continued',
    ].join('\n');
    expect(findPythonImports(source)).toEqual([
      { module: 'os', level: 0, names: [] },
      { module: 'pkg.core', level: 0, names: [] },
      { module: 'pkg.util', level: 0, names: ['helper', 'other'] },
      { module: '', level: 1, names: ['sibling'] },
      { module: 'parent.mod', level: 2, names: ['thing'] },
      { module: 'optional.dep', level: 0, names: [] },
      { module: 'after.semicolon', level: 0, names: [] },
      { module: 'long.line', level: 0, names: ['continued'] },
    ]);
  });
});

describe('selectAffectedTests for pytest', () => {
  const cwd = makeProject({
    'pytest.ini': '[pytest]\n',
    'app/__init__.py': '',
    'app/core.py': 'from .util import slug\n\ndef run():\n    return slug("x")\n',
    'app/util.py': 'def slug(s):\n    return s\n',
    'app/models/__init__.py': 'from app.models.user import User\n',
    'app/models/user.py': 'class User: pass\n',
    'app/report.py': '"""Mentions import app.util only in a docstring."""\n',
    'tests/test_core.py': 'from app.core import run\n',
    'tests/test_util.py': 'import app.util\n',
    'tests/test_models.py': 'from app import models\n',
    'tests/test_report.py': 'from app.report import *\n',
    'tests/helpers.py': 'from app.util import slug\n',
    'tests/test_with_helper.py': 'import helpers\n',
    'lib/src_layout_test.py': 'from lib_pkg.api import call\n',
    'src/lib_pkg/__init__.py': '',
    'src/lib_pkg/api.py': 'def call(): pass\n',
  });
  made.push(cwd);

  it('selects the test modules that import a changed module, through other modules and test helpers', async () => {
    const selection = await select(cwd, ['app/util.py']);
    expect(selection.files).toEqual(['tests/test_core.py', 'tests/test_util.py', 'tests/test_with_helper.py']);
    expect(selection.reason).toContain('3 test modules import app/util.py');
  });

  it('resolves packages, submodules named in from-imports and a src layout', async () => {
    expect((await select(cwd, ['app/models/user.py'])).files).toEqual(['tests/test_models.py']);
    expect((await select(cwd, ['src/lib_pkg/api.py'])).files).toEqual(['lib/src_layout_test.py']);
    expect((await select(cwd, ['app/__init__.py'])).files).toEqual([
      'tests/test_core.py',
      'tests/test_models.py',
      'tests/test_report.py',
      'tests/test_util.py',
      'tests/test_with_helper.py',
    ]);
  });

  it('selects a changed test module itself and the last failures', async () => {
    expect((await select(cwd, ['tests/test_report.py'], ['tests/test_util.py'])).files).toEqual([
      'tests/test_report.py',
      'tests/test_util.py',
    ]);
  });

  it('runs everything when conftest.py or the pytest config changes, or a changed file is not a module', async () => {
    expect(await select(cwd, ['tests/conftest.py'])).toMatchObject({
      files: 'all',
      reason: expect.stringContaining('a pytest conftest'),
    });
    expect(await select(cwd, ['pyproject.toml'])).toMatchObject({ files: 'all' });
    expect(await select(cwd, ['app/data.json'])).toMatchObject({
      files: 'all',
      reason: expect.stringContaining('not a Python module'),
    });
  });
});
