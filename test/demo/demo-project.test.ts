import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareDemo, type DemoProject } from '../../src/demo/prepare.js';
import { runDemoSuite, type DemoResults } from './demo-suite.js';

// The three injected bugs and the tests each one breaks: a crash, a rounding bug, an off-by-one.
const BROKEN_BY = {
  crash: [
    'parseQuery > returns an empty object when there is no query at all',
    'getParam > returns undefined for a URL without a query',
  ],
  rounding: [
    'formatMoney > formats a price with cents',
    'formatMoney > formats euros and pounds',
    'formatMoney > keeps amounts that binary floating point cannot represent exactly',
    'toCents > converts a decimal amount to whole cents',
  ],
  offByOne: [
    'paginate > returns the first page',
    'paginate > returns a page in the middle',
    'paginate > shows every item exactly once across the pages',
  ],
};

describe('the demo project', () => {
  let demo: DemoProject;
  let results: DemoResults;
  beforeAll(async () => {
    demo = await prepareDemo();
    results = await runDemoSuite(demo.repo);
  });
  afterAll(() => demo.cleanup());

  it('has a few dozen tests and starts at about 78%', () => {
    expect(results.total).toBe(41);
    expect(results.passed).toBe(32);
    expect(results.pass_rate).toBeGreaterThanOrEqual(75);
    expect(results.pass_rate).toBeLessThanOrEqual(85);
  });

  it('fails exactly the tests the three injected bugs break', () => {
    const failing = results.failures.map((failure) => failure.id).sort();
    expect(failing).toEqual([...BROKEN_BY.crash, ...BROKEN_BY.rounding, ...BROKEN_BY.offByOne].sort());
  });

  it('shows each bug by its own kind of failure', () => {
    const messageOf = (id: string) => results.failures.find((failure) => failure.id === id)?.message ?? '';
    for (const id of BROKEN_BY.crash)
      expect(messageOf(id)).toContain("Cannot read properties of undefined (reading 'startsWith')");
    expect(messageOf(BROKEN_BY.rounding[0]!)).toContain("'$19.98'");
    expect(messageOf(BROKEN_BY.offByOne[0]!)).toContain('deep-equal');
  });
});
