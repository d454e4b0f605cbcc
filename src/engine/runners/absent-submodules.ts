import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';

/** A git submodule `.gitmodules` lists whose folder holds nothing here: its files are not on this machine. */
export interface AbsentSubmodule {
  /** Its folder, relative to the repository root, with `/` separators, as `.gitmodules` writes it. */
  path: string;
  /** Where it is cloned from, when `.gitmodules` says. */
  url?: string;
  /** True when the tree records the commit it pins (a gitlink), so `git submodule update --init` can fetch it. */
  recorded: boolean;
}

/**
 * The submodules of the repository at `root` that are not checked out: listed in `.gitmodules`, their folder
 * missing or empty (a clone without `--recursive`, a source archive that left them out). Git reads `.gitmodules`,
 * as it does for `git submodule`. Empty when there is no `.gitmodules` or git cannot read it.
 */
export async function absentSubmodules(root: string): Promise<AbsentSubmodule[]> {
  if (!existsSync(join(root, '.gitmodules'))) return [];
  const listed = await execa(
    'git',
    ['config', '--file', '.gitmodules', '--null', '--get-regexp', '^submodule\\..*\\.(path|url)$'],
    { cwd: root, reject: false },
  );
  if (listed.exitCode !== 0) return [];
  const byName = new Map<string, { path?: string; url?: string }>();
  // With --null each entry is `key\nvalue\0`.
  for (const entry of listed.stdout.split('\0')) {
    const cut = entry.indexOf('\n');
    const key = /^submodule\.(.*)\.(path|url)$/.exec(cut < 0 ? entry : entry.slice(0, cut));
    if (!key || cut < 0) continue;
    const module = byName.get(key[1]!) ?? {};
    module[key[2] as 'path' | 'url'] = entry.slice(cut + 1);
    byName.set(key[1]!, module);
  }
  const absent = [...byName.values()].filter(
    (m): m is { path: string; url?: string } =>
      m.path !== undefined && m.path !== '' && holdsNothing(join(root, m.path)),
  );
  if (absent.length === 0) return [];
  const staged = await execa('git', ['ls-files', '--stage', '-z', '--', ...absent.map((m) => m.path)], {
    cwd: root,
    reject: false,
  });
  const gitlinks = new Set(
    staged.exitCode === 0
      ? staged.stdout
          .split('\0')
          .filter((line) => line.startsWith('160000 '))
          .map((line) => line.slice(line.indexOf('\t') + 1))
      : [],
  );
  return absent.map((m) => ({
    path: m.path.replace(/\/+$/, ''),
    ...(m.url ? { url: m.url } : {}),
    recorded: gitlinks.has(m.path.replace(/\/+$/, '')),
  }));
}

/** A folder that is missing or empty: a submodule that was never checked out. */
function holdsNothing(dir: string): boolean {
  if (!existsSync(dir)) return true;
  return statSync(dir).isDirectory() && readdirSync(dir).length === 0;
}
