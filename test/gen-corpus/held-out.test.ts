// The held-out projects of the generation corpus (held-out.json): not run here (gen is run on them once, by hand,
// after issue 25's design change; see README.md), only checked to be entries the corpus script can use: new
// projects, every field the scripts read, and a bad menu each (the generator writes it in the project's style).
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

interface Entry {
  name: string;
  runner: string;
  family: string;
  source: Record<string, string>;
  install: string;
  test: string;
  gen: {
    lang: string;
    removed: string;
    target: string;
    stem: string;
    newFile: string;
    summary: string;
    cases: string[];
    use: { subject: string; call: string; value: string; missing: { name: string; call: string; value: string } };
  };
}

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const load = (file: string) => JSON.parse(readFileSync(here(file), 'utf8')) as Entry[];
const heldOut = load('./held-out.json');
const corpus = load('./projects.json');

describe('held-out projects of the generation corpus', () => {
  it('at least 10, none of them in projects.json, over several runners and languages', () => {
    expect(heldOut.length).toBeGreaterThanOrEqual(10);
    const known = new Set(corpus.map((e) => JSON.stringify(e.source)));
    expect(heldOut.filter((e) => known.has(JSON.stringify(e.source))).map((e) => e.name)).toEqual([]);
    expect(new Set(heldOut.map((e) => e.name)).size).toBe(heldOut.length);
    expect(new Set(heldOut.map((e) => e.runner)).size).toBeGreaterThanOrEqual(4);
    expect(new Set(heldOut.map((e) => e.gen.lang))).toEqual(new Set(['js', 'ts', 'py', 'go']));
  });

  it('each entry has what the corpus scripts read, and a bad menu of nine files in its own style', async () => {
    const { badMenu } = (await import(pathToFileURL(here('../../scripts/gen-corpus/bad-menu.mjs')).href)) as {
      badMenu(entry: Entry): { kind: string; file: string; text: string }[];
    };
    for (const entry of heldOut) {
      expect(entry.install && entry.test && entry.family, entry.name).toBeTruthy();
      const { gen } = entry;
      expect(
        [gen.removed, gen.target, gen.stem, gen.summary, gen.use.call, gen.use.missing.name],
        entry.name,
      ).not.toContain(undefined);
      expect(gen.cases.length, entry.name).toBeGreaterThanOrEqual(3);
      expect(gen.newFile, entry.name).toContain('{stem}');
      const menu = badMenu(entry);
      expect(menu, entry.name).toHaveLength(9);
      expect(new Set(menu.map((b) => b.file)).size, entry.name).toBe(9);
      expect(
        menu.map((b) => b.file),
        entry.name,
      ).not.toContain(gen.removed);
      for (const bad of menu) expect(bad.text.trim(), `${entry.name} ${bad.kind}`).not.toBe('');
      expect(menu.find((b) => b.kind === 'no-assertion')!.text, entry.name).toContain(gen.use.call);
    }
  });
});
