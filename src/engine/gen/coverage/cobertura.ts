import { readFile } from 'node:fs/promises';
import { XMLParser } from 'fast-xml-parser';
import type { CoverageData } from './model.js';
import { keepFiles, repoRelative } from './paths.js';

interface XmlLine {
  number: string;
  hits: string;
  branch?: string;
  'condition-coverage'?: string;
}
interface XmlClass {
  filename: string;
  lines?: { line?: XmlLine[] };
}
interface XmlReport {
  coverage?: { sources?: { source?: (string | number)[] }; packages?: { package?: { classes?: { class?: XmlClass[] } }[] } };
}

const LISTS = new Set(['source', 'package', 'class', 'line']);

/**
 * Reads a Cobertura XML report (istanbul's `cobertura`, coverage.py's `coverage xml`, gcovr, JaCoCo converters)
 * into line and branch coverage. File names are relative to the report's first `<source>`; a line's
 * `condition-coverage="50% (1/2)"` gives how many of its branches ran (Cobertura does not say which).
 */
export async function readCobertura(path: string, root: string, include: (file: string) => boolean): Promise<CoverageData> {
  const text = await readFile(path, 'utf8').catch(() => '');
  if (!text) return {};
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => LISTS.has(name), parseTagValue: false });
  let xml: XmlReport;
  try {
    xml = parser.parse(text) as XmlReport;
  } catch {
    return {};
  }
  const base = String(xml.coverage?.sources?.source?.[0] ?? root).trim() || root;
  const out: CoverageData = {};
  for (const pkg of xml.coverage?.packages?.package ?? []) {
    for (const cls of pkg.classes?.class ?? []) {
      const file = repoRelative(root, cls.filename, base);
      const f = (out[file] ??= { lines: {}, branches: [] });
      for (const line of cls.lines?.line ?? []) {
        const n = Number(line.number);
        f.lines[n] = Math.max(f.lines[n] ?? 0, Number(line.hits));
        const m = /\((\d+)\/(\d+)\)/.exec(line['condition-coverage'] ?? '');
        if (line.branch !== 'true' || !m) continue;
        const [covered, total] = [Number(m[1]), Number(m[2])];
        for (let i = 0; i < total; i++) f.branches.push([n, i < covered, i]);
      }
    }
  }
  return keepFiles(out, include);
}
