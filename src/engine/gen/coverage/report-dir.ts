import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readCobertura } from './cobertura.js';
import { readIstanbulJson } from './istanbul-json.js';
import { readLcov } from './lcov.js';
import type { CoverageData } from './model.js';

/**
 * The coverage in a tool's report folder, from the first standard report it holds: istanbul JSON
 * (coverage-final.json), lcov (lcov.info), then Cobertura XML (cobertura-coverage.xml, coverage.xml).
 */
export async function readReportDir(dir: string, root: string, include: (file: string) => boolean): Promise<CoverageData | null> {
  if (existsSync(join(dir, 'coverage-final.json'))) return readIstanbulJson(join(dir, 'coverage-final.json'), root, include);
  if (existsSync(join(dir, 'lcov.info'))) return readLcov(join(dir, 'lcov.info'), root, include);
  for (const name of ['cobertura-coverage.xml', 'coverage.xml']) {
    if (existsSync(join(dir, name))) return readCobertura(join(dir, name), root, include);
  }
  return null;
}
