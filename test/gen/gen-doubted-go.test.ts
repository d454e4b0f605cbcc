import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeRepos, ROOT } from '../helpers/repo.js';
import { genProject, runGen } from '../helpers/gen-run.js';

afterAll(removeRepos);

const GO = '/usr/bin/go';
const AGENT = join(ROOT, 'test/fixtures/agents/files-agent.mjs');

// The uuid and go-cmp shapes of the gen corpus: a package with a type whose String() no existing test runs, a
// change adding Scan, and a generation holding the real test, a smoke test logging a value (t.Log runs String(),
// outside the change), a constant assertion and a placeholder that panics (which ends go's test binary).
const base = {
  'go.mod': 'module example.com/ver\n\ngo 1.19\n',
  'ver.go':
    'package ver\n\nimport "fmt"\n\n// Version is a version number.\ntype Version int\n\n// Parse reads a version.\nfunc Parse(s string) (Version, error) {\n\tvar v int\n\tif _, err := fmt.Sscanf(s, "v%d", &v); err != nil {\n\t\treturn 0, err\n\t}\n\treturn Version(v), nil\n}\n\nfunc (v Version) String() string {\n\treturn fmt.Sprintf("v%d", int(v))\n}\n',
  'ver_test.go':
    'package ver\n\nimport "testing"\n\nfunc TestParse(t *testing.T) {\n\tif v, err := Parse("v3"); err != nil || v != 3 {\n\t\tt.Fatalf("Parse(v3) = %d, %v", v, err)\n\t}\n}\n',
};
const change = {
  'scan.go':
    'package ver\n\nimport "fmt"\n\n// Scan reads a version from a string or an int.\nfunc (v *Version) Scan(src interface{}) error {\n\tswitch src := src.(type) {\n\tcase string:\n\t\tif src == "" {\n\t\t\treturn nil\n\t\t}\n\t\tp, err := Parse(src)\n\t\tif err != nil {\n\t\t\treturn fmt.Errorf("Scan: %v", err)\n\t\t}\n\t\t*v = p\n\tcase int:\n\t\tif src < 0 {\n\t\t\treturn fmt.Errorf("Scan: negative version %d", src)\n\t\t}\n\t\t*v = Version(src)\n\tdefault:\n\t\treturn fmt.Errorf("Scan: unable to scan %T", src)\n\t}\n\treturn nil\n}\n',
};
const real =
  'package ver\n\nimport "testing"\n\nfunc TestScan(t *testing.T) {\n\tvar v Version\n\tif err := v.Scan("v4"); err != nil || v != 4 {\n\t\tt.Fatalf("Scan(v4) = %d, %v", v, err)\n\t}\n\tif err := v.Scan(7); err != nil || v != 7 {\n\t\tt.Fatalf("Scan(7) = %d, %v", v, err)\n\t}\n\tif err := v.Scan(-1); err == nil {\n\t\tt.Fatal("Scan(-1) should fail")\n\t}\n\tif err := v.Scan("x"); err == nil {\n\t\tt.Fatal("Scan(x) should fail")\n\t}\n\tif err := v.Scan(1.5); err == nil {\n\t\tt.Fatal("Scan(1.5) should fail")\n\t}\n\tv = 9\n\tif err := v.Scan(""); err != nil || v != 9 {\n\t\tt.Fatalf("Scan(\\"\\") = %d, %v", v, err)\n\t}\n}\n';

// The bad generations beside the real file: a smoke test that only logs, a constant assertion, a placeholder.
const badFiles = {
  'scan_smoke_test.go':
    'package ver\n\nimport "testing"\n\nfunc TestRunsWithoutError(t *testing.T) {\n\tvar v Version\n\t_ = v.Scan("v4")\n\tt.Log(v)\n}\n',
  'scan_sanity_test.go':
    'package ver\n\nimport "testing"\n\nfunc TestWorks(t *testing.T) {\n\tvar v Version\n\tgot := v.Scan("v4")\n\tif got != got {\n\t\tt.Fatal("unexpected value")\n\t}\n}\n',
  'scan_errors_test.go':
    'package ver\n\nimport "testing"\n\nfunc TestRejectsInvalidInput(t *testing.T) {\n\tpanic("not implemented")\n}\n',
};

describe('gen on Go: a doubted test is judged by runs over the change', () => {
  it('the smoke test logging a value outside the change and the constant assertion are rejected with their reasons; the real test is committed', async (ctx) => {
    if (!existsSync(GO)) return ctx.skip('go is not installed (/usr/bin/go)');
    const repo = genProject(base, change);
    const agent = mkdtempSync(join(tmpdir(), 'fixcycle-files-agent-'));
    const plan = {
      target: 'scan.go:Scan',
      rounds: [
        {
          'scan_test.go': real,
          ...badFiles,
        },
      ],
    };
    writeFileSync(join(agent, 'plan.json'), JSON.stringify(plan));
    const { out, exitCode, state, committed } = await runGen(
      repo,
      `${process.execPath} ${AGENT} ${agent} ${join(agent, 'plan.json')}`,
    );
    const reasons = state.rejected.map((r: any) => `${r.test}: ${r.reason}`).join('\n');
    expect(exitCode, out).toBe(0);
    expect(
      state.kept.map((k: any) => k.test),
      reasons,
    ).toEqual(['scan_test.go::TestScan']);
    expect(committed).toEqual(['scan_test.go']);
    const reason = (test: string): string => state.rejected.find((r: any) => r.test === test)?.reason ?? '(kept)';
    // Its t.Log(v) runs String(), which no test ran before: no line of the change, so no coverage the change has.
    expect(reason('scan_smoke_test.go::TestRunsWithoutError')).toMatch(/checks nothing[^]*asserts nothing/);
    expect(reason('scan_sanity_test.go::TestWorks')).toMatch(/checks nothing[^]*(constant|itself)/);
    expect(reason('scan_errors_test.go::TestRejectsInvalidInput')).toMatch(/placeholder/);
    // The panicking placeholder in the same package did not hide the real test's coverage: mutants were made.
    expect(state.kept[0].note).not.toMatch(/no mutant/);
  }, 480_000);

  it('an existing test using a helper the real new file declares (pkg-errors): the others are judged beside it, not "does not collect"', async (ctx) => {
    if (!existsSync(GO)) return ctx.skip('go is not installed (/usr/bin/go)');
    // The published package's json_test.go calls scanned(), which only the real new test file declares: any new
    // file run alone breaks the package's build in json_test.go.
    const repo = genProject(
      {
        ...base,
        'json_test.go':
          'package ver\n\nimport "testing"\n\nfunc TestScanJSON(t *testing.T) {\n\tif v := scanned(t, "v2"); v != 2 {\n\t\tt.Fatalf("scanned(v2) = %d", v)\n\t}\n}\n',
      },
      change,
    );
    const agent = mkdtempSync(join(tmpdir(), 'fixcycle-files-agent-'));
    const plan = {
      target: 'scan.go:Scan',
      rounds: [
        {
          'scan_test.go': `${real}\nfunc scanned(t *testing.T, s string) Version {\n\tt.Helper()\n\tvar v Version\n\tif err := v.Scan(s); err != nil {\n\t\tt.Fatal(err)\n\t}\n\treturn v\n}\n`,
          ...badFiles,
        },
      ],
    };
    writeFileSync(join(agent, 'plan.json'), JSON.stringify(plan));
    const { out, exitCode, state, committed } = await runGen(
      repo,
      `${process.execPath} ${AGENT} ${agent} ${join(agent, 'plan.json')}`,
    );
    const reasons = state.rejected.map((r: any) => `${r.test}: ${r.reason}`).join('\n');
    expect(exitCode, out).toBe(0);
    expect(committed).toEqual(['scan_test.go']);
    expect(reasons).not.toMatch(/does not collect/);
    const reason = (test: string): string => state.rejected.find((r: any) => r.test === test)?.reason ?? '(kept)';
    expect(reason('scan_smoke_test.go::TestRunsWithoutError'), reasons).toMatch(/checks nothing[^]*asserts nothing/);
    expect(reason('scan_sanity_test.go::TestWorks'), reasons).toMatch(/checks nothing[^]*(constant|itself)/);
    expect(reason('scan_errors_test.go::TestRejectsInvalidInput')).toMatch(/placeholder/);
  }, 480_000);
});
