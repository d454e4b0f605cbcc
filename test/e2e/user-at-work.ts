import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { git } from '../helpers/repo.js';

/**
 * A person working beside the loop: every few hundred milliseconds they save a line at the end of the file the
 * agent fixes, create a note, add to a tracked file or delete a note they made. Remembers what the tree must hold.
 */
export function userAtWork(repo: string) {
  const lines: string[] = [];
  const notes = new Map<string, string>();
  const readme: string[] = [];
  let n = 0;
  const timer = setInterval(() => {
    n++;
    switch (n % 4) {
      case 0: {
        const line = `// saved by the user ${n}`;
        appendFileSync(join(repo, 'src/calc.js'), `${line}\n`);
        lines.push(line);
        break;
      }
      case 1: {
        mkdirSync(join(repo, 'notes'), { recursive: true });
        const content = `note ${n} by the user\n`;
        writeFileSync(join(repo, `notes/${n}.txt`), content);
        notes.set(`notes/${n}.txt`, content);
        break;
      }
      case 2: {
        const line = `readme line ${n} by the user`;
        appendFileSync(join(repo, 'notes.txt'), `${line}\n`);
        readme.push(line);
        break;
      }
      case 3: {
        const first = [...notes.keys()][0];
        if (first) {
          rmSync(join(repo, first));
          notes.delete(first);
        }
        break;
      }
    }
  }, 150);
  return {
    stop: () => clearInterval(timer),
    lines,
    notes,
    readme,
    get count() {
      return n;
    },
  };
}

/** Every line, note and deletion of the user's is in their tree as they left it; none is in a fix commit on `branch`. */
export function expectUserWorkKept(
  repo: string,
  user: ReturnType<typeof userAtWork>,
  committedSince: string,
  branch = 'main',
): void {
  const calc = readFileSync(join(repo, 'src/calc.js'), 'utf8');
  for (const line of user.lines) expect(calc).toContain(line);
  for (const [file, content] of user.notes) expect(readFileSync(join(repo, file), 'utf8')).toBe(content);
  const notes = readFileSync(join(repo, 'notes.txt'), 'utf8');
  for (const line of user.readme) expect(notes).toContain(line);
  expect(git(repo, 'log', '-p', '--format=%s', `${committedSince}..${branch}`)).not.toMatch(/by the user/);
}
