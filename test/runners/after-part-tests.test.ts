import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveRunner } from '../../src/engine/runners/index.js';
import { copyFixture, removeFixtures } from './helpers/fixtures.js';

afterAll(removeFixtures);

// As object-inspect 1.13.1: `npm run tests-only && npm run test:corejs`, tape twice over the same files.
function project(corejsFails: boolean): string {
  const dir = copyFixture('tape-passing');
  mkdirSync(join(dir, 'extra'), { recursive: true });
  writeFileSync(
    join(dir, 'extra', 'shim.js'),
    `var test = require('tape');\ntest('shimmed', function (t) { t.equal(1, ${corejsFails ? 2 : 1}, 'with the shim'); t.end(); });\n`,
  );
  const scripts = {
    test: 'npm run tests-only && npm run test:corejs',
    'tests-only': "tape 'test/**/*.js'",
    'test:corejs': "tape extra/shim.js 'test/**/*.js'",
  };
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'fixture', private: true, scripts }));
  return dir;
}

describe('a part after the tests that runs the runner again', () => {
  it('its tests count, under the part’s name, as tape’s two runs add up', async () => {
    const dir = project(false);
    const run = await (await resolveRunner(dir, {})).run({ cwd: dir, scope: 'full', timeoutMs: 60_000 });
    const first = run.result.tests.filter((t) => !t.id.startsWith('test:corejs > '));
    const second = run.result.tests.filter((t) => t.id.startsWith('test:corejs > '));
    expect(first.length).toBeGreaterThan(0);
    expect(second.length).toBe(first.length + 1);
    expect(second.map((t) => t.id)).toContain('test:corejs > shimmed > with the shim');
    expect(run.result.errors).toEqual([]);
    expect(run.result.tests.every((t) => t.status === 'passed')).toBe(true);
  });

  it('a failure in it is a failed test, not a failed part', async () => {
    const dir = project(true);
    const run = await (await resolveRunner(dir, {})).run({ cwd: dir, scope: 'full', timeoutMs: 60_000 });
    expect(run.result.tests.filter((t) => t.status === 'failed').map((t) => t.id)).toEqual([
      'test:corejs > shimmed > with the shim',
    ]);
    expect(run.result.errors).toEqual([]);
  });
});
