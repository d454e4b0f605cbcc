// A corpus project's injected bug: one edit `{ file, search, replace }` or a list of them (a bug spread over
// several lines, functions or files). Each edit's `search` occurs once in its file when the edit is made; the
// edits are made in order, so two edits of one file see the first one's result.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The bug's edits, as a list, whichever form the entry uses. */
export function bugEdits(bug) {
  const edits = Array.isArray(bug) ? bug : [bug];
  if (edits.length === 0) throw new Error('a corpus bug needs at least one edit: { file, search, replace }');
  return edits;
}

/** The files the bug changes, each once, in the order of its edits. */
export const bugFiles = (bug) => [...new Set(bugEdits(bug).map((e) => e.file))];

/** The bug's edits made on `text`, the text of `file` (edits of other files are left to their own file). */
export function applyEditsTo(file, text, bug) {
  let out = text;
  for (const edit of bugEdits(bug).filter((e) => e.file === file)) {
    const at = out.indexOf(edit.search);
    if (at < 0 || out.indexOf(edit.search, at + 1) >= 0)
      throw new Error(`the bug's search string must occur once in ${file}: ${JSON.stringify(edit.search)}`);
    out = out.slice(0, at) + edit.replace + out.slice(at + edit.search.length);
  }
  return out;
}

/** Makes the bug in the project at `dir`; returns each changed file's unbroken text, by path. */
export function applyBug(dir, bug) {
  const originals = {};
  for (const file of bugFiles(bug)) {
    const path = join(dir, file);
    originals[file] = readFileSync(path, 'utf8');
    writeFileSync(path, applyEditsTo(file, originals[file], bug));
  }
  return originals;
}

/**
 * The lines each edit changes, in its unbroken file (`originals` by path): `[{ file, line, endLine }]`, from the
 * first character the edit changes to its last (a removal marks the line it starts on).
 */
export function bugLocations(originals, bug) {
  return bugEdits(bug).map((edit) => {
    const text = originals[edit.file];
    const { search, replace } = edit;
    let head = 0;
    while (head < search.length && search[head] === replace[head]) head++;
    let tail = 0;
    while (
      tail < search.length - head &&
      tail < replace.length - head &&
      search[search.length - 1 - tail] === replace[replace.length - 1 - tail]
    )
      tail++;
    const at = text.indexOf(search);
    const lineAt = (offset) => text.slice(0, offset).split('\n').length;
    const line = lineAt(at + head);
    // The indentation a removed line leaves to the next is not a change of that line.
    let end = at + search.length - tail - 1;
    while (end > at + head && /\s/.test(text[end])) end--;
    return { file: edit.file, line, endLine: Math.max(line, lineAt(end)) };
  });
}

/**
 * The scripted agent's spec (scripts/corpus/agent.mjs): the edits, and each broken file's unbroken text to
 * restore (`originals` null on the unbroken project: nothing to restore).
 */
export const agentSpec = (bug, originals) => ({ edits: bugEdits(bug), originals });
