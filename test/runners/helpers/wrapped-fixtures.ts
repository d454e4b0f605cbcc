import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { copyFixture, REPO_ROOT } from './fixtures.js';

const FIXTURES = join(REPO_ROOT, 'test', 'fixtures', 'projects');

/**
 * A fixture of a monorepo or task runner holds only its own files (package.json, Makefile, config); its code and
 * tests are those of the single-runner fixtures: mocha-failing in packages/alpha, jest-passing in packages/beta,
 * and, for make-mocha, mocha-failing's code with its spec in spec/ (where bare `mocha` finds nothing).
 */
export function assemble(name: 'npm-workspaces' | 'make-mocha'): string {
  const dir = copyFixture(name);
  const from = (fixture: string, file: string, to: string): void =>
    cpSync(join(FIXTURES, fixture, file), join(dir, to), { recursive: true });
  if (name === 'npm-workspaces') {
    for (const file of ['math.js', 'test']) from('mocha-failing', file, join('packages', 'alpha', file));
    for (const file of ['math.js', 'math.test.js']) from('jest-passing', file, join('packages', 'beta', file));
  } else {
    from('mocha-failing', 'math.js', 'math.js');
    from('mocha-failing', join('test', 'math.spec.js'), join('spec', 'math.spec.js'));
  }
  return dir;
}
