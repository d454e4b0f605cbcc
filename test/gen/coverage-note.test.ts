import { describe, expect, it } from 'vitest';
import { genLine } from '../../src/engine/gen/plain-lines.js';
import { coverageLines } from '../../src/engine/gen/changed-coverage.js';
import type { GenContext } from '../../src/engine/gen/gen-context.js';
import type { ContextPackage } from '../../src/engine/gen/phase-context.js';

describe('coverage of a change with no executable line', () => {
  it('says so, on screen and in the report, instead of an empty percentage', () => {
    // Lines 1-2 of types.js changed: a comment and a blank line; the coverage tool counts neither.
    const pkg = {
      changed_files: [
        { file: 'src/types.js', lines: [1, 2], hunks: [{ start: 1, count: 2 }] },
        { file: 'src/calc.js', lines: [3], hunks: [{ start: 3, count: 1 }] },
      ],
    } as unknown as ContextPackage;
    const after = {
      'src/types.js': { lines: { 5: 1 }, branches: [] },
      'src/calc.js': { lines: { 3: 0 }, branches: [] },
    };
    const ctx = { options: { coverageLines: 80, coverageBranches: 70 } } as unknown as GenContext;
    const { lines, gaps } = coverageLines(pkg, null, after, ctx);
    expect(lines[0]).toMatchObject({
      file: 'src/types.js',
      linesAfter: null,
      note: 'none of its 2 changed line(s) is executable (comments, blank lines, declarations): nothing to cover',
    });
    expect(lines[1]).toMatchObject({ file: 'src/calc.js', linesAfter: 0 });
    expect(lines[1]!.note).toBeUndefined();
    expect(gaps).toEqual([expect.stringMatching(/^src\/calc\.js: 0% lines/)]);
    expect(genLine({ type: 'gen-coverage', files: lines, measured: true })).toBe(
      '[coverage] src/types.js: none of its 2 changed line(s) is executable (comments, blank lines, declarations): nothing to cover\n[coverage] src/calc.js: lines -% → 0% (target 80%), branches -% → -% (target 70%)',
    );
  });
});
