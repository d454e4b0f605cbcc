import { afterAll, describe, expect, it } from 'vitest';
import { goCommands } from '../../src/engine/runners/commands/go.js';
import { bareCall } from '../../src/engine/runners/detect.js';
import { resolveRunner } from '../../src/engine/runners/index.js';
import { copyFixture, counts, missingTool, removeFixtures } from './helpers/fixtures.js';

afterAll(removeFixtures);

const call = (args: string[]) => ({ ...bareCall('go'), args });

describe('go test and its test cache', () => {
  it("runs the user's command as they run it: a full run may replay go's cached passes", () => {
    expect(goCommands(call(['./...'])).full('/r').argv).toEqual(['go', 'test', '-json', './...']);
  });

  it('runs named tests afresh (a flaky re-run, a stability run): a replayed pass would answer nothing', () => {
    const commands = goCommands(call(['./...']));
    expect(commands.subset('/r', { files: ['calc/calc_test.go'], names: ['TestAdd'] })!.argv).toEqual([
      'go',
      'test',
      '-json',
      '-count=1',
      '-run',
      '^(TestAdd)$',
      './calc',
    ]);
    expect(commands.subset('/r', { files: ['calc'], names: ['TestAdd/zero'] })!.argv).toContain('-count=1');
  });

  it("keeps the user's own -count in every run", () => {
    const commands = goCommands(call(['-count=3', './...']));
    expect(commands.full('/r').argv).toEqual(['go', 'test', '-json', '-count=3', './...']);
    expect(commands.subset('/r', { files: ['calc'], names: [] })!.argv.filter((a) => a.startsWith('-count'))).toEqual([
      '-count=3',
    ]);
  });

  const skip = missingTool(['go', ['version']]);
  it.skipIf(skip)(
    'reads every test of a replayed run, and a re-run of named tests runs them again',
    { timeout: 180_000 },
    async () => {
      const dir = copyFixture('go-failing');
      const runner = await resolveRunner(dir, {});
      const full = (log: string[]) =>
        runner.run({ cwd: dir, scope: 'full', timeoutMs: 120_000, onLines: (lines) => log.push(...lines) });
      const first = await full([]);
      const replayed: string[] = [];
      const again = await full(replayed);
      // strs passed, so go replays it; calc failed, which go never caches.
      expect(replayed.join('\n')).toMatch(/example\.com\/fixture\/strs\s+\(cached\)/);
      expect(counts(again.result)).toEqual(counts(first.result));
      expect(again.result.tests.map((t) => t.id).sort()).toEqual(first.result.tests.map((t) => t.id).sort());
      expect(again.result.tests.find((t) => t.name === 'TestUpper')?.status).toBe('passed');
      const log: string[] = [];
      const rerun = await runner.runSubset!(
        { cwd: dir, timeoutMs: 120_000, onLines: (lines) => log.push(...lines) },
        { files: ['strs/strs_test.go'], names: ['TestUpper'] },
      );
      expect(rerun!.result.tests.find((t) => t.name === 'TestUpper')?.status).toBe('passed');
      expect(log.join('\n')).not.toMatch(/\(cached\)/);
    },
  );
});
