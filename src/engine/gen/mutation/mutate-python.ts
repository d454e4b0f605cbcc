import { spawnSync } from 'node:child_process';
import { ordered } from './operators.js';
import type { MutationSite } from './types.js';

// Run by the project's own Python, so the module parses as the tests will load it. It reads {text, lines} on stdin
// and prints the sites as JSON: each node on a changed line, changed by Python's `ast` module, unparsed in place of
// its own source segment (the rest of the file stays byte for byte), and parsed again to be sure it is Python.
const SCRIPT = String.raw`
import ast, copy, json, sys
req = json.load(sys.stdin)
text, changed = req["text"], set(req["lines"])
tree = ast.parse(text)
lines = text.splitlines(keepends=True)
starts = [0]
for l in lines:
    starts.append(starts[-1] + len(l))
def offset(lineno, col):
    # ast columns count UTF-8 bytes; the text is indexed by characters.
    line = lines[lineno - 1]
    return starts[lineno - 1] + len(line.encode("utf-8")[:col].decode("utf-8", "replace"))
FLIP = {ast.Lt: ast.GtE, ast.LtE: ast.Gt, ast.Gt: ast.LtE, ast.GtE: ast.Lt, ast.Eq: ast.NotEq, ast.NotEq: ast.Eq,
        ast.Is: ast.IsNot, ast.IsNot: ast.Is, ast.In: ast.NotIn, ast.NotIn: ast.In}
ARITH = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult}
parent = {}
for p in ast.walk(tree):
    for c in ast.iter_child_nodes(p):
        parent[c] = p
sites = []
def add(node, replacement, operator, what):
    if node.lineno not in changed or getattr(node, "end_lineno", None) is None:
        return
    s, e = offset(node.lineno, node.col_offset), offset(node.end_lineno, node.end_col_offset)
    new = text[:s] + replacement + text[e:]
    try:
        ast.parse(new)
    except SyntaxError:
        return
    before = " ".join(text[s:e].split())
    sites.append({"line": node.lineno, "operator": operator, "order": s,
                  "description": (before[:57] + "..." if len(before) > 60 else before) + " -> " + what, "text": new})
def unparsed(node):
    return "(" + ast.unparse(node) + ")"
for node in ast.walk(tree):
    if isinstance(node, ast.Compare) and type(node.ops[0]) in FLIP:
        m = copy.deepcopy(node); m.ops[0] = FLIP[type(node.ops[0])]()
        add(node, unparsed(m), "comparison", ast.unparse(m))
    elif isinstance(node, ast.BoolOp):
        m = copy.deepcopy(node); m.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        add(node, unparsed(m), "logical", "and/or swapped")
    elif isinstance(node, ast.BinOp) and type(node.op) in ARITH:
        m = copy.deepcopy(node); m.op = ARITH[type(node.op)]()
        add(node, unparsed(m), "arithmetic", ast.unparse(m))
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        add(node, unparsed(node.operand), "remove-not", "without not")
    elif isinstance(node, (ast.If, ast.While, ast.IfExp)) and not isinstance(node.test, ast.Compare):
        add(node.test, "(not " + unparsed(node.test) + ")", "negate-condition", "not (...)")
    elif isinstance(node, ast.Constant) and not isinstance(parent.get(node), (ast.Expr, ast.JoinedStr, ast.FormattedValue)):
        v = node.value
        if isinstance(v, bool): new = repr(not v)
        elif isinstance(v, (int, float)): new = repr(1 if v == 0 else 0 if v == 1 else v + 1)
        elif isinstance(v, str) and v: new = "''"
        else: continue
        add(node, new, "constant", new)
    if isinstance(node, ast.Return) and node.value is not None and not (isinstance(node.value, ast.Constant) and node.value.value is None):
        add(node.value, "None", "return-value", "return None")
    if isinstance(node, (ast.Expr, ast.Assign, ast.AugAssign, ast.Raise)) and not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)):
        add(node, "pass", "drop-statement", "statement removed")
print(json.dumps(sites))
`;

/**
 * The mutation sites on the changed lines of a Python module, made and checked by `python`'s own `ast` module.
 * Docstrings are left alone; a module that does not parse gives none. Throws when the Python cannot run.
 */
export function pythonSites(python: string, text: string, changed: ReadonlySet<number>): MutationSite[] {
  const out = spawnSync(python, ['-c', SCRIPT], {
    input: JSON.stringify({ text, lines: [...changed] }),
    encoding: 'utf8',
    timeout: 60_000,
    maxBuffer: 256 * 1024 * 1024,
  });
  if (out.error) throw new Error(`${python} could not make mutants: ${out.error.message}`);
  if (out.status !== 0) {
    if (/SyntaxError/.test(out.stderr)) return [];
    throw new Error(`${python} could not make mutants: ${out.stderr.trim().split('\n').pop()}`);
  }
  return ordered(JSON.parse(out.stdout) as (MutationSite & { order: number })[]);
}
