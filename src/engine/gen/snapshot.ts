import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The content of some uncommitted files, to put them back after a generate round that is undone. */
export function snapshotFiles(root: string, files: readonly string[]): Map<string, string> {
  const snap = new Map<string, string>();
  for (const file of files) if (existsSync(join(root, file))) snap.set(file, readFileSync(join(root, file), 'utf8'));
  return snap;
}

/** Puts the snapshot back, and removes `created` files that were not in it. */
export function restoreSnapshot(root: string, snap: ReadonlyMap<string, string>, created: readonly string[]): void {
  for (const [file, text] of snap) writeFileSync(join(root, file), text);
  for (const file of created) if (!snap.has(file)) rmSync(join(root, file), { force: true });
}
