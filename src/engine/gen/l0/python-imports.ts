import { execa } from 'execa';
import type { Finding } from './finding.js';

// Run with the project's own Python, so "installed" means installed where its tests run. It reads each file with
// ast (a syntax error is a finding), resolves every import as pytest's default import mode would (the first
// folder up without __init__.py on sys.path, and the project root), and reads a module's top-level names
// statically instead of importing it.
const SCRIPT = String.raw`
import ast, importlib.util, json, os, sys
root, files = sys.argv[1], json.loads(sys.argv[2])
sys.path.insert(0, root)
if os.path.isdir(os.path.join(root, 'src')): sys.path.insert(1, os.path.join(root, 'src'))

def defined(path):
    try:
        tree = ast.parse(open(path, encoding='utf-8').read())
    except Exception:
        return None
    names = set()
    def walk(body):
        for n in body:
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                if n.name == '__getattr__': raise LookupError
                names.add(n.name)
            elif isinstance(n, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                for t in (n.targets if isinstance(n, ast.Assign) else [n.target]):
                    for x in ast.walk(t):
                        if isinstance(x, ast.Name): names.add(x.id)
            elif isinstance(n, (ast.Import, ast.ImportFrom)):
                for a in n.names:
                    if a.name == '*': raise LookupError
                    names.add(a.asname or a.name.split('.')[0])
            for field in ('body', 'orelse', 'finalbody', 'handlers'):
                if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and isinstance(getattr(n, field, None), list): walk(getattr(n, field))
    try:
        walk(tree.body)
    except LookupError:
        return None
    return names

def spec(name):
    try:
        return importlib.util.find_spec(name), None
    except ModuleNotFoundError as e:
        return None, None
    except Exception as e:
        return None, e

# The project root is on sys.path only when the runner is started from it as a module (python -m pytest): a
# project whose root is itself a package (its own hypothesis.py beside __init__.py) may import the library of that
# name instead. Where the two resolutions differ, the runner decides, not this check.
def elsewhere(name, wanted=()):
    saved = list(sys.path)
    sys.path[:] = [p for p in sys.path if os.path.abspath(p) not in (os.path.abspath(root), os.path.abspath(os.path.join(root, 'src')))]
    try:
        s, err = spec(name)
        if s is None or err is not None: return False
        origin = s.origin if s.origin and s.origin.endswith('.py') else None
        if origin and os.path.abspath(origin).startswith(os.path.abspath(root) + os.sep): return False
        names = defined(origin) if origin else None
        # A name a package does not define may be one of its submodules (\`from hypothesis import strategies\`).
        return names is None or all(w in names or (s.submodule_search_locations is not None and spec(name + '.' + w)[0] is not None) for w in wanted)
    finally:
        sys.path[:] = saved

out = {}
for f in files:
    path = os.path.join(root, f)
    res = {'syntax': None, 'problems': []}
    out[f] = res
    try:
        tree = ast.parse(open(path, encoding='utf-8').read(), filename=f)
    except SyntaxError as e:
        res['syntax'] = {'line': e.lineno or 1, 'message': '%s: %s' % (type(e).__name__, e.msg)}
        continue
    base = os.path.dirname(path)
    while os.path.exists(os.path.join(base, '__init__.py')): base = os.path.dirname(base)
    if base not in sys.path: sys.path.insert(0, base)
    package = os.path.relpath(os.path.dirname(path), base).replace(os.sep, '.')
    guarded = set()
    for t in ast.walk(tree):
        if isinstance(t, ast.Try) and any(h.type is None or any(isinstance(x, ast.Name) and x.id in ('ImportError', 'ModuleNotFoundError', 'Exception') for x in ast.walk(h.type)) for h in t.handlers):
            for b in t.body:
                guarded.update(id(x) for x in ast.walk(b))
            # The fallback an ImportError handler imports (\`except ImportError: from mock import patch\`) runs only
            # where the first import fails.
            for h in t.handlers:
                for b in h.body:
                    guarded.update(id(x) for x in ast.walk(b))
    for n in ast.walk(tree):
        if id(n) in guarded: continue
        if isinstance(n, ast.Import):
            for a in n.names:
                s, err = spec(a.name)
                if s is None and err is None and not elsewhere(a.name): res['problems'].append({'line': n.lineno, 'kind': 'import', 'message': 'imports "%s", a module that does not exist here' % a.name})
        elif isinstance(n, ast.ImportFrom):
            if n.level:
                parts = package.split('.') if package != '.' else []
                if n.level - 1 > len(parts): continue
                mod = '.'.join(parts[:len(parts) - n.level + 1] + ([n.module] if n.module else []))
            else:
                mod = n.module
            if not mod: continue
            s, err = spec(mod)
            if err is not None: continue
            if s is None:
                if not n.level and elsewhere(mod): continue
                res['problems'].append({'line': n.lineno, 'kind': 'import', 'message': 'imports from "%s", a module that does not exist here' % mod})
                continue
            origin = s.origin if s.origin and s.origin.endswith('.py') else None
            names = defined(origin) if origin else None
            if not n.level and names is not None and any(a.name != '*' and a.name not in names for a in n.names) and elsewhere(mod, [a.name for a in n.names if a.name != '*']): continue
            for a in n.names:
                if a.name == '*' or names is None or a.name in names: continue
                if s.submodule_search_locations is not None:
                    sub, _ = spec(mod + '.' + a.name)
                    if sub is not None: continue
                res['problems'].append({'line': n.lineno, 'kind': 'export', 'message': 'imports { %s } from "%s", which %s does not define' % (a.name, mod, os.path.relpath(origin, root) if origin.startswith(root) else mod)})
print(json.dumps(out))
`;

/** Syntax errors and imports of Python test files that resolve to no module, or to a name the module does not define. */
export async function pythonImportFindings(
  python: string,
  root: string,
  files: readonly string[],
  env: Record<string, string> = {},
): Promise<{ findings: Finding[]; ran: boolean; why?: string }> {
  if (files.length === 0) return { findings: [], ran: true };
  const r = await execa(python, ['-c', SCRIPT, root, JSON.stringify(files)], {
    cwd: root,
    reject: false,
    timeout: 60_000,
    env: { ...env, PYTHONDONTWRITEBYTECODE: '1' },
  });
  let parsed: Record<
    string,
    {
      syntax: { line: number; message: string } | null;
      problems: { line: number; kind: 'import' | 'export'; message: string }[];
    }
  >;
  try {
    parsed = JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '');
  } catch {
    return {
      findings: [],
      ran: false,
      why: `python imports (${python} could not read them: ${(r.stderr || r.stdout || String(r.exitCode)).split('\n').filter(Boolean).at(-1) ?? ''})`,
    };
  }
  const findings: Finding[] = [];
  for (const [file, res] of Object.entries(parsed)) {
    if (res.syntax)
      findings.push({
        file,
        line: res.syntax.line,
        severity: 'critical',
        check: 'syntax',
        message: res.syntax.message,
      });
    for (const p of res.problems)
      findings.push({ file, line: p.line, severity: 'critical', check: p.kind, message: p.message });
  }
  return { findings, ran: true };
}
