import { describe, expect, it } from 'vitest';
import { readLibtestOutput } from '../../src/engine/runners/libtest-output.js';

// cargo test's doctest lines as libtest prints them (once_cell 1.17: the injected bug turns 3 lines into 4, moving
// every doctest below it; libtest runs doctests in parallel, so their order varies between runs).
const run = (lines: string[]) =>
  readLibtestOutput(
    [
      '   Doc-tests once_cell',
      '',
      `running ${lines.length} tests`,
      ...lines,
      '',
      `test result: ok. ${lines.length} passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 1.00s`,
      '',
    ].join('\n'),
  )!;

describe('doctest ids', () => {
  it('leave out the line, so a doctest a fix moved keeps its id; doctests of one item are numbered in line order', () => {
    const broken = run([
      'test src/lib.rs - unsync::OnceCell<T>::take (line 615) ... ok',
      'test src/lib.rs - sync::Lazy (line 1201) ... ok',
      'test src/lib.rs - sync::Lazy (line 1180) ... ok',
      'test src/lib.rs - sync::_dummy (line 1354) - compile fail ... ok',
    ]);
    const fixed = run([
      'test src/lib.rs - sync::Lazy (line 1179) ... ok',
      'test src/lib.rs - unsync::OnceCell<T>::take (line 614) ... ok',
      'test src/lib.rs - sync::Lazy (line 1200) ... ok',
      'test src/lib.rs - sync::_dummy (line 1353) - compile fail ... ok',
    ]);
    const ids = (r: typeof broken) => r.tests.map((t) => [t.name, t.id]).sort();
    expect(ids(broken)).toEqual([
      ['src/lib.rs - sync::Lazy (line 1180)', 'src/lib.rs - sync::Lazy'],
      ['src/lib.rs - sync::Lazy (line 1201)', 'src/lib.rs - sync::Lazy (2)'],
      ['src/lib.rs - sync::_dummy (line 1354) - compile fail', 'src/lib.rs - sync::_dummy - compile fail'],
      ['src/lib.rs - unsync::OnceCell<T>::take (line 615)', 'src/lib.rs - unsync::OnceCell<T>::take'],
    ]);
    expect(new Set(fixed.tests.map((t) => t.id))).toEqual(new Set(broken.tests.map((t) => t.id)));
  });
});
