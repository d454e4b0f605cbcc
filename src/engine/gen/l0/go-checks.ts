import { dirname } from 'node:path';
import { execa } from 'execa';
import type { Finding } from './finding.js';

function checkOf(message: string): Finding['check'] {
  if (/no required module provides|is not in (std|GOROOT)|cannot find package|could not import/.test(message))
    return 'import';
  if (/undeclared name|undefined: |has no field or method|not exported/.test(message)) return 'export';
  if (/expected |syntax error|illegal character|unexpected /.test(message)) return 'syntax';
  return 'typecheck';
}

/**
 * `go vet` on the packages holding new Go test files: it type-checks them (imports that resolve to nothing, names
 * the package does not define, syntax errors) and runs the checks `go test` itself runs before testing. Every
 * finding in a new file is critical: go test would not build it.
 */
export async function goVetFindings(
  root: string,
  files: readonly string[],
  timeoutMs: number,
  signal?: AbortSignal,
  env: Record<string, string> = {},
): Promise<{ findings: Finding[]; ran: boolean; why?: string }> {
  const goFiles = files.filter((f) => f.endsWith('_test.go'));
  if (goFiles.length === 0) return { findings: [], ran: true };
  const packages = [...new Set(goFiles.map((f) => `./${dirname(f)}`.replace(/^\.\/\.$/, '.')))];
  let r;
  try {
    r = await execa('go', ['vet', ...packages], {
      cwd: root,
      env,
      reject: false,
      timeout: timeoutMs,
      cancelSignal: signal,
    });
  } catch (error) {
    return { findings: [], ran: false, why: `go vet (${(error as Error).message.split('\n')[0]})` };
  }
  if (r.failed && r.exitCode === undefined)
    return { findings: [], ran: false, why: `go vet (go not found: ${(r.shortMessage ?? '').split('\n')[0]})` };
  const findings: Finding[] = [];
  const seen = new Set<string>();
  for (const m of `${r.stderr}\n${r.stdout}`.matchAll(/^(?:vet: )?(?:\.\/)?(\S+?\.go):(\d+)(?::\d+)?: (.+)$/gm)) {
    const file = goFiles.find((f) => f === m[1] || f.endsWith(`/${m[1]}`) || m[1]!.endsWith(`/${f}`));
    if (!file || seen.has(`${file}:${m[2]}:${m[3]}`)) continue;
    seen.add(`${file}:${m[2]}:${m[3]}`);
    findings.push({ file, line: Number(m[2]), severity: 'critical', check: checkOf(m[3]!), message: m[3]!.trim() });
  }
  return { findings, ran: true };
}
