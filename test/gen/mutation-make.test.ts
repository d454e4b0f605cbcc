import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'acorn';
import { describe, expect, it } from 'vitest';
import { makeMutants } from '../../src/engine/gen/mutation/make-mutants.js';
import { parsesAsJs } from '../../src/engine/gen/mutation/mutate-js.js';
import { MAX_MUTANTS_PER_MODULE } from '../../src/engine/gen/mutation/pick-sites.js';
import { restoreLeftMutant, withMutant } from '../../src/engine/gen/mutation/with-mutant.js';

const PYTHON = '/usr/bin/python3';
const GOFMT = ['/usr/bin/gofmt', '/usr/lib/go/bin/gofmt'].find((p) => existsSync(p));

function module(file: string, text: string): string {
  const root = mkdtempSync(join(tmpdir(), 'fixcycle-mutants-'));
  writeFileSync(join(root, file), text);
  return root;
}
const every = (text: string): number[] => text.split('\n').map((_, i) => i + 1);

const JS = `'use strict';
const LIMIT = 10;
function clamp(value, low, high) {
  if (value < low) return low;
  if (value > high && !Number.isNaN(high)) return high;
  return value;
}
function label(n) {
  let out = 'n=' + n;
  count(n);
  if (isBig(n)) throw new Error('too big');
  return out;
}
module.exports = { clamp, label, LIMIT, on: true };
`;

const TS = `export interface Range { low: number; high: number }
export function clamp(value: number, r: Range): number {
  if (value < r.low) return r.low;
  if (value > r.high || Number.isNaN(value)) return r.high;
  const size: 1 | 2 = 1;
  log(size * 2);
  return value;
}
`;

const PY = `"""A module docstring."""
LIMIT = 10

def clamp(value, low, high):
    """Clamp a value."""
    if value < low:
        return low
    if value > high and not flag(high):
        return high
    total = value + 1
    if ready:
        raise ValueError(f"bad {value}")
    return value
`;

const GO = `package calc

import "fmt"

// Clamp keeps value between low and high.
func Clamp(value, low, high int) int {
	if value < low && low != 0 {
		return low
	}
	if value >= high || false {
		fmt.Println("high < low")
		return high - 1
	}
	return value
}
`;

describe('the mutator, per language', () => {
  it('JavaScript (acorn): every operator gives parseable code that differs, only on the changed lines, the same each time', async () => {
    const root = module('calc.js', JS);
    const mutants = await makeMutants(root, { file: 'calc.js', lines: every(JS) }, PYTHON);
    expect(new Set(mutants.map((m) => m.operator))).toEqual(
      new Set([
        'comparison',
        'logical',
        'negate-condition',
        'remove-not',
        'constant',
        'return-value',
        'drop-statement',
        'arithmetic',
      ]),
    );
    for (const m of mutants) {
      expect(m.text).not.toBe(JS);
      expect(() => parse(m.text, { ecmaVersion: 'latest', sourceType: 'script' }), m.description).not.toThrow();
    }
    expect(mutants.find((m) => m.description === '< -> >=')?.text).toContain('if (value >= low) return low;');
    expect(await makeMutants(root, { file: 'calc.js', lines: every(JS) }, PYTHON)).toEqual(mutants);
    // Only line 4 changed: every mutant is on it.
    const one = await makeMutants(root, { file: 'calc.js', lines: [4] }, PYTHON);
    expect(one.length).toBeGreaterThan(0);
    expect(one.every((m) => m.line === 4)).toBe(true);
  });

  it('TypeScript (the compiler): mutants parse as TypeScript, and type positions are left alone', async () => {
    const root = module('calc.ts', TS);
    const mutants = await makeMutants(root, { file: 'calc.ts', lines: every(TS) }, PYTHON);
    expect(mutants.length).toBeGreaterThan(4);
    for (const m of mutants) {
      expect(m.text).not.toBe(TS);
      expect(await parsesAsJs('calc.ts', m.text), m.description).toBe(true);
    }
    expect(mutants.some((m) => m.operator === 'comparison' && m.text.includes('value >= r.low'))).toBe(true);
    // `1 | 2` is a type: its constants are not mutated.
    expect(mutants.every((m) => m.text.includes('const size: 1 | 2'))).toBe(true);
  });

  it('Python (its ast module): each mutant parses and differs, docstrings are left alone', async () => {
    const root = module('calc.py', PY);
    const mutants = await makeMutants(root, { file: 'calc.py', lines: every(PY) }, PYTHON);
    const operators = new Set(mutants.map((m) => m.operator));
    for (const op of [
      'comparison',
      'logical',
      'remove-not',
      'negate-condition',
      'constant',
      'return-value',
      'drop-statement',
    ])
      expect(operators, op).toContain(op);
    for (const m of mutants) {
      expect(m.text).not.toBe(PY);
      const check = spawnSync(PYTHON, ['-c', 'import ast, sys; ast.parse(sys.stdin.read())'], { input: m.text });
      expect(check.status, `${m.description}\n${check.stderr}`).toBe(0);
      expect(m.text).toContain('"""A module docstring."""');
      expect(m.text).toContain('"""Clamp a value."""');
    }
    expect(mutants.find((m) => m.operator === 'comparison')?.text).toContain('if (value >= low):');
  });

  it('Go (text operators): comparisons, && and ||, constants and + - change; strings, comments and imports do not', async (ctx) => {
    const root = module('calc.go', GO);
    const mutants = await makeMutants(root, { file: 'calc.go', lines: every(GO) }, PYTHON);
    expect(new Set(mutants.map((m) => m.operator))).toEqual(
      new Set(['comparison', 'logical', 'constant', 'arithmetic']),
    );
    for (const m of mutants) {
      expect(m.text).not.toBe(GO);
      expect(m.text).toContain('fmt.Println("high < low")');
      expect(m.text).toContain('// Clamp keeps value between low and high.');
    }
    if (!GOFMT) return ctx.skip('gofmt (go) is not installed: the Go mutants were not parsed');
    for (const m of mutants) {
      const check = spawnSync(GOFMT, ['-e'], { input: m.text });
      expect(check.status, `${m.description}\n${check.stderr}`).toBe(0);
    }
  });

  it('keeps at most 20 mutants per module, spread over the changed lines', async () => {
    const long = Array.from({ length: 80 }, (_, i) => `if (x${i} < ${i}) f(${i});`).join('\n') + '\n';
    const root = module('long.js', long);
    const mutants = await makeMutants(root, { file: 'long.js', lines: every(long) }, PYTHON);
    expect(mutants).toHaveLength(MAX_MUTANTS_PER_MODULE);
    expect(Math.min(...mutants.map((m) => m.line))).toBe(1);
    expect(Math.max(...mutants.map((m) => m.line))).toBeGreaterThan(70);
  });

  it('mutates first the lines no existing test runs, then spreads the rest over the others', async () => {
    const long = Array.from({ length: 80 }, (_, i) => `if (x${i} < ${i}) f(${i});`).join('\n') + '\n';
    const root = module('long.js', long);
    // Lines 41 to 44 are run only by the new tests: every site of theirs is among the 20.
    const fresh = (line: number) => line >= 41 && line <= 44;
    const mutants = await makeMutants(root, { file: 'long.js', lines: every(long) }, PYTHON, () => true, fresh);
    expect(mutants).toHaveLength(MAX_MUTANTS_PER_MODULE);
    const onFresh = mutants.filter((m) => fresh(m.line));
    const sitesPerLine = (await makeMutants(root, { file: 'long.js', lines: [41] }, PYTHON)).length;
    expect(onFresh).toHaveLength(Math.min(MAX_MUTANTS_PER_MODULE, 4 * sitesPerLine));
    expect(new Set(mutants.map((m) => m.id)).size).toBe(mutants.length);
  });
});

describe('a mutant in the working copy', () => {
  it('is replaced by the exact original bytes and times, also when the run throws', async () => {
    const root = module('calc.js', 'const a = 1;\r\n// ünïcode\n');
    const path = join(root, 'calc.js');
    const original = readFileSync(path);
    const before = statSync(path).mtimeMs;
    await expect(
      withMutant(path, 'const a = 0;\n', async () => {
        expect(readFileSync(path, 'utf8')).toBe('const a = 0;\n');
        throw new Error('the runner crashed');
      }),
    ).rejects.toThrow('the runner crashed');
    expect(readFileSync(path).equals(original)).toBe(true);
    expect(Math.abs(statSync(path).mtimeMs - before)).toBeLessThan(1);
    expect(await withMutant(path, 'const a = 2;\n', async () => 'ran')).toBe('ran');
    expect(readFileSync(path).equals(original)).toBe(true);
  });
});

describe('a gen killed while a mutant is in place', () => {
  it('finds the journal at its next start and puts the original back', async () => {
    const root = module('calc.py', 'LIMIT = 10\n');
    const path = join(root, 'calc.py');
    const journal = join(root, 'mutant-in-place.json');
    let left = '';
    await withMutant(
      path,
      'LIMIT = 11\n',
      async () => {
        // What a SIGKILL here would leave: the journal and the mutant.
        left = readFileSync(journal, 'utf8');
      },
      journal,
    );
    expect(existsSync(journal)).toBe(false);
    expect(restoreLeftMutant(journal)).toBeNull();
    writeFileSync(journal, left);
    writeFileSync(path, 'LIMIT = 11\n');
    expect(restoreLeftMutant(journal)).toBe(path);
    expect(readFileSync(path, 'utf8')).toBe('LIMIT = 10\n');
    expect(existsSync(journal)).toBe(false);
  });
});
