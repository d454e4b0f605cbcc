import { afterAll, describe, expect, it } from 'vitest';
import { findGoImports } from '../../src/engine/affected/go-imports.js';
import { selectAffectedTests } from '../../src/engine/affected/index.js';
import { makeProject, removeProjects } from './project.js';

const made: string[] = [];
afterAll(() => removeProjects(made));

const select = (cwd: string, changedFiles: string[], lastFailedFiles: string[] = []) =>
  selectAffectedTests({ cwd, runner: 'go', changedFiles, lastFailedFiles });

describe('findGoImports', () => {
  it('reads single imports and import blocks, and ignores comments and code after the imports', () => {
    const source = [
      'package core // import "fake/comment"',
      '',
      'import "fmt"',
      'import (',
      '\tstr "strings"',
      '\t_ "embed"',
      '\t/* "fake/block" */',
      '\t"example.com/app/util"',
      '\traw `example.com/app/raw`',
      ')',
      '',
      'func F() { s := "example.com/app/not-an-import"; _ = s }',
    ].join('\n');
    expect(findGoImports(source)).toEqual(['fmt', 'strings', 'embed', 'example.com/app/util', 'example.com/app/raw']);
  });
});

describe('selectAffectedTests for go', () => {
  const cwd = makeProject({
    'go.mod': 'module example.com/app\n\ngo 1.22\n',
    'main.go': 'package main\n\nimport "example.com/app/cmd"\n\nfunc main() { cmd.Run() }\n',
    'util/util.go': 'package util\n\nfunc Slug(s string) string { return s }\n',
    'util/util_test.go': 'package util\n\nimport "testing"\n\nfunc TestSlug(t *testing.T) {}\n',
    'util/testdata/case.txt': 'x\n',
    'core/core.go':
      'package core\n\nimport (\n\t"fmt"\n\t"example.com/app/util"\n)\n\nfunc Run() { fmt.Println(util.Slug("a")) }\n',
    'core/core_test.go': 'package core_test\n\nimport "testing"\n',
    'cmd/cmd.go': 'package cmd\n\nimport "example.com/app/core"\n\nfunc Run() { core.Run() }\n',
    'cmd/e2e/e2e_test.go': 'package e2e\n\nimport (\n\t"testing"\n\t"example.com/app/cmd"\n)\n',
    'other/other.go': 'package other\n\n// import "example.com/app/util"\n',
    'other/other_test.go': 'package other\n',
    'tools/go.mod': 'module example.com/tools\n',
    'tools/gen.go': 'package tools\n\nimport "example.com/app/util"\n',
    'tools/gen_test.go': 'package tools\n',
  });
  made.push(cwd);

  it('selects the changed package and the tested packages that import it, directly or not', async () => {
    const selection = await select(cwd, ['util/util.go']);
    expect(selection.files).toEqual(['./cmd/e2e', './core', './util']);
    expect(selection.reason).toContain('3 tested packages build on util/util.go');
  });

  it('maps testdata to its package and adds the packages that failed last time', async () => {
    expect((await select(cwd, ['util/testdata/case.txt'], ['example.com/app/other'])).files).toEqual([
      './other',
      './util',
    ]);
    expect((await select(cwd, ['core/core_test.go'], ['cmd/e2e/e2e_test.go'])).files).toEqual(['./cmd/e2e', './core']);
  });

  it('runs only the packages that failed last time when nothing changed', async () => {
    expect((await select(cwd, [], ['./core/', 'util/util_test.go'])).files).toEqual(['./core', './util']);
  });

  it('runs every package when go.mod changes', async () => {
    expect(await select(cwd, ['go.mod'])).toMatchObject({
      files: 'all',
      reason: expect.stringContaining('the Go module file'),
    });
  });
});
