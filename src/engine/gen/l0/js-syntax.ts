import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import type { Finding } from './finding.js';

/**
 * Node's own parser on plain JavaScript test files (`node --check`, as a module: test runners load either
 * kind), so a test file that does not parse is rejected in L0 with the parser's words, not left for the
 * runner to fail on. TypeScript files are tsc's.
 */
export async function jsSyntaxFindings(root: string, files: readonly string[]): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const file of files.filter((f) => /\.(m|c)?js$/.test(f))) {
    let text: string;
    try {
      text = readFileSync(join(root, file), 'utf8');
    } catch {
      continue;
    }
    const r = await execa(
      process.execPath,
      [`--input-type=${file.endsWith('.cjs') ? 'commonjs' : 'module'}`, '--check'],
      { input: text, reject: false, timeout: 30_000 },
    );
    if (r.exitCode === 0) continue;
    const line = Number(/\[stdin\]:(\d+)/.exec(r.stderr)?.[1] ?? 1);
    const message =
      r.stderr
        .split('\n')
        .find((l) => /^\w*Error:/.test(l))
        ?.trim() ?? 'does not parse';
    findings.push({ file, line, severity: 'critical', check: 'syntax', message });
  }
  return findings;
}
