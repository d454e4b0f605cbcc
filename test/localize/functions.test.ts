import { describe, expect, it } from 'vitest';
import { enclosingFunction, functionsOf } from '../../src/engine/localize/functions.js';

const at = async (file: string, text: string, line: number): Promise<string | undefined> =>
  enclosingFunction(await functionsOf(file, text), line)?.name;

describe('function boundaries per language', () => {
  it('JavaScript (acorn): declarations, assigned expressions, methods, arrows inside calls', async () => {
    const js = [
      'function isNumber(x) {', //                1
      '  return typeof x === "number";', //       2
      '}', //                                     3
      'Yallist.prototype.get = function (n) {', // 4
      '  return n;', //                           5
      '};', //                                    6
      'class Box {', //                           7
      '  open() {', //                            8
      '    return [1].map((v) => v + 1);', //     9
      '  }', //                                   10
      '}', //                                     11
      'module.exports = { isNumber };', //        12
    ].join('\n');
    expect(await at('index.js', js, 2)).toBe('isNumber');
    expect(await at('index.js', js, 5)).toBe('Yallist.prototype.get');
    expect(await at('index.js', js, 8)).toBe('Box.open');
    // A callback is named by the call it is passed to, after the function it is in.
    expect(await at('index.js', js, 9)).toBe('Box.open > (map callback)');
    expect(await at('index.js', js, 12)).toBeUndefined();
  });

  it('a module wrapper (an IIFE, a UMD factory) is top-level code, its inner functions keep their names', async () => {
    const iife = [
      '(function (window) {', //                 1
      '  var re = /x/;', //                       2
      '  function format(a) {', //                3
      '    return a.toString(16);', //            4
      '  }', //                                   5
      '  window.format = format;', //             6
      '})(this);', //                             7
    ].join('\n');
    const umd = [
      '!function (root, factory) {', //          1
      '  root.lib = factory();', //               2
      '}(this, function () {', //                 3
      '  var cache = {};', //                     4
      '  return { get: function (k) { return cache[k]; } };', // 5
      '});', //                                   6
    ].join('\n');
    for (const file of ['sprintf.js', 'sprintf.ts']) {
      expect(await at(file, iife, 2)).toBeUndefined();
      expect(await at(file, iife, 4)).toBe('format');
      expect(await at(file, umd, 2)).toBeUndefined();
      expect(await at(file, umd, 4)).toBeUndefined();
      expect(await at(file, umd, 5)).toBe('get');
    }
    // A function called where it is written inside another function is still a function of its own.
    expect(await at('a.js', 'function f() {\n  (function () {\n    return 1;\n  })();\n}\n', 3)).toBe(
      'f > (anonymous)',
    );
  });

  it('TypeScript, and JavaScript acorn rejects, through the TypeScript compiler', async () => {
    const ts = [
      'export class Parser {',
      '  private depth: number = 0;',
      '  parse(input: string): number {',
      '    return input.length;',
      '  }',
      '}',
      'export const twice = (n: number): number => n * 2;',
      'export function validate(xs: number[]): void {',
      '  xs.forEach((x) => {',
      '    if (x < 0) throw new Error("negative");',
      '  });',
      '}',
    ].join('\n');
    expect(await at('src/p.ts', ts, 4)).toBe('Parser.parse');
    expect(await at('src/p.ts', ts, 7)).toBe('twice');
    expect(await at('src/p.ts', ts, 10)).toBe('validate > (forEach callback)');
    expect(await at('broken.js', 'function ok() {\n  return 1 +;\n}\n', 2)).toBe('ok');
  });

  it('Python by indentation, methods as Class.method', async () => {
    const py = [
      'def first(xs):',
      '    return xs[0]',
      '',
      '',
      'class SortedList:',
      '    def add(self, value):',
      '        self._items.append(',
      '            value)',
      '        return self',
      '',
      'x = 1',
    ].join('\n');
    expect(await at('m.py', py, 2)).toBe('first');
    expect(await at('m.py', py, 8)).toBe('SortedList.add');
    expect(await at('m.py', py, 9)).toBe('SortedList.add');
    expect(await at('m.py', py, 11)).toBeUndefined();
  });

  it('Go functions and methods, Rust functions in impl blocks', async () => {
    const go = [
      'package cmpopts',
      '',
      'func isEmpty(x, y interface{}) bool {',
      '\treturn x == nil',
      '}',
      '',
      'func (r *reporter) Report(s string) {',
      '\tif s == "}" {',
      '\t}',
      '}',
    ].join('\n');
    expect(await at('equate.go', go, 4)).toBe('isEmpty');
    expect(await at('equate.go', go, 9)).toBe('reporter.Report');
    const rs = [
      'pub struct Guard;',
      'impl<T> Drop for Guard<T> {',
      '    fn drop(&mut self) {',
      '        let _ = "{";',
      '    }',
      '}',
      'pub fn defer() -> u8 {',
      '    1',
      '}',
    ].join('\n');
    expect(await at('src/lib.rs', rs, 4)).toBe('Guard::drop');
    expect(await at('src/lib.rs', rs, 8)).toBe('defer');
    const tests = await functionsOf('src/lib.rs', rs + '\n#[test]\nfn drops() {\n    defer();\n}\n');
    expect(tests.find((f) => f.name === 'drops')).toMatchObject({ start: 11, test: true });
  });
});
