import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveRunner } from '../../src/engine/runners/index.js';
import { copyFixture, removeFixtures } from './helpers/fixtures.js';

afterAll(removeFixtures);

const TSCONFIG =
  '{ "compilerOptions": { "strict": true, "module": "ESNext", "moduleResolution": "Bundler", "target": "ES2022", "noEmit": true, "skipLibCheck": true }, "include": ["*.ts"] }\n';
const TYPE_TESTS = [
  "import { expectTypeOf, test } from 'vitest';",
  "import { label } from './label.js';",
  "test('label takes a number', () => { expectTypeOf(label).parameters.toEqualTypeOf<[number]>(); });",
  "test('label returns a string', () => { expectTypeOf(label(1)).toEqualTypeOf<string>(); });",
  '',
].join('\n');

/** vitest-passing with `vitest run --typecheck` as its test script, a typed source and its type tests. */
function typecheckProject(label: string): string {
  const dir = copyFixture('vitest-passing');
  writeFileSync(
    join(dir, 'package.json'),
    '{ "name": "fixture", "private": true, "type": "module", "scripts": { "test": "vitest run --typecheck" } }\n',
  );
  writeFileSync(join(dir, 'tsconfig.json'), TSCONFIG);
  writeFileSync(join(dir, 'label.ts'), label);
  writeFileSync(join(dir, 'label.test-d.ts'), TYPE_TESTS);
  return dir;
}

// `vitest --typecheck` (issue 19): type tests are tests in vitest's own count; a type error in a source file is
// no test's failure, and vitest's JSON report leaves it out.
describe('vitest --typecheck', () => {
  it("counts the type tests with the others; a failing type test is a failed test with tsc's words", async () => {
    const dir = typecheckProject('export function label(n: number): string | number {\n  return `#${n}`;\n}\n');
    const printed: string[] = [];
    const run = await (
      await resolveRunner(dir, {})
    ).run({ cwd: dir, scope: 'full', timeoutMs: 180_000, onLines: (lines) => printed.push(...lines) });
    const output = stripVTControlCharacters(printed.join('\n'));
    // vitest's own count: `Tests  1 failed | 4 passed | 1 skipped | 1 todo (7)` (the fixture's own tests and the type tests).
    const said = /Tests\s+1 failed \| (\d+) passed \| (\d+) skipped \| (\d+) todo \((\d+)\)/.exec(output);
    expect(said, output).not.toBeNull();
    const count = (status: string) => run.result.tests.filter((t) => t.status === status).length;
    expect([count('passed'), count('skipped'), run.result.tests.length]).toEqual([
      Number(said![1]),
      Number(said![2]) + Number(said![3]),
      Number(said![4]),
    ]);
    const failed = run.result.tests.filter((t) => t.status === 'failed');
    expect(failed.map((t) => t.name)).toEqual(['label returns a string']);
    expect(failed[0]!.message).toMatch(/Expected string, Actual number/);
  }, 240_000);

  it('a type error in a source file is an error naming the file and the type error, not "exited although no test failed"', async () => {
    const dir = typecheckProject(
      'export function label(n: number): string {\n  return `#${n}`;\n}\nexport const broken: number = "x";\n',
    );
    const run = await (await resolveRunner(dir, {})).run({ cwd: dir, scope: 'full', timeoutMs: 180_000 });
    expect(run.result.tests.filter((t) => t.status === 'failed')).toEqual([]);
    expect(run.result.errors).toHaveLength(1);
    expect(run.result.errors[0]).toMatchObject({ file: 'label.ts' });
    expect(run.result.errors[0]!.message).toMatch(
      /^vitest: Unhandled Source Error: TypeCheckError: Type 'string' is not assignable to type 'number'\./,
    );
    expect(run.result.errors[0]!.message).not.toContain('\u001b');
  }, 240_000);
});
