import { describeChange, FLIPPED, nextNumber, ordered, SWAPPED } from './operators.js';
import type { MutationOperator, MutationSite } from './types.js';

type Ts = typeof import('typescript');
type Node = import('typescript').Node;
let loaded: Promise<Ts> | null = null;

/** The TypeScript compiler, loaded on first use (it reads JavaScript too): only mutation and localization need it. */
function typescript(): Promise<Ts> {
  loaded ??= import('typescript').then((m) => ((m as { default?: Ts }).default ?? m) as Ts);
  return loaded;
}

function scriptKind(ts: Ts, file: string): import('typescript').ScriptKind {
  if (/\.[cm]?tsx$|\.jsx$/.test(file)) return ts.ScriptKind.TSX;
  return /\.[cm]?ts$/.test(file) ? ts.ScriptKind.TS : ts.ScriptKind.JS;
}

/** Whether the text parses as the file's language: a mutant that does not is no mutant. */
export async function parsesAsJs(file: string, text: string): Promise<boolean> {
  const ts = await typescript();
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, scriptKind(ts, file));
  return ((source as unknown as { parseDiagnostics?: unknown[] }).parseDiagnostics ?? []).length === 0;
}

/**
 * The mutation sites on the changed lines of a JS/TS module, by the TypeScript compiler's parser: a comparison
 * flipped, `&&`/`||` and `+`/`-` swapped, a condition negated, a `!` removed, a constant or a returned value
 * changed, a call or assignment statement dropped. Each is the whole text with one change, and parses.
 */
export async function jsSites(file: string, text: string, changed: ReadonlySet<number>): Promise<MutationSite[]> {
  const ts = await typescript();
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, scriptKind(ts, file));
  const lineOf = (pos: number): number => source.getLineAndCharacterOfPosition(pos).line + 1;
  const sites: (MutationSite & { order: number })[] = [];
  const add = (start: number, end: number, replacement: string, operator: MutationOperator, what: string): void => {
    const line = lineOf(start);
    if (!changed.has(line)) return;
    const description = describeChange(text.slice(start, end), what);
    sites.push({
      line,
      operator,
      description,
      text: text.slice(0, start) + replacement + text.slice(end),
      order: start,
    });
  };
  const isTypeContext = (node: Node): boolean => {
    for (let n: Node | undefined = node.parent; n; n = n.parent) if (ts.isTypeNode(n)) return true;
    return false;
  };
  const visit = (node: Node): void => {
    if (ts.isBinaryExpression(node)) {
      const op = node.operatorToken;
      const token = op.getText(source);
      const flipped = FLIPPED[token];
      const swapped = SWAPPED[token];
      if (flipped) add(op.getStart(source), op.end, flipped, 'comparison', flipped);
      else if (swapped) add(op.getStart(source), op.end, swapped[0], swapped[1], swapped[0]);
    } else if ((ts.isIfStatement(node) || ts.isWhileStatement(node)) && !ts.isBinaryExpression(node.expression)) {
      // A comparison is flipped above; any other condition is negated whole.
      const c = node.expression;
      add(c.getStart(source), c.end, `!(${c.getText(source)})`, 'negate-condition', `!(...)`);
    } else if (ts.isConditionalExpression(node) && !ts.isBinaryExpression(node.condition)) {
      const c = node.condition;
      add(c.getStart(source), c.end, `!(${c.getText(source)})`, 'negate-condition', `!(...)`);
    } else if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.ExclamationToken) {
      add(node.getStart(source), node.end, `(${node.operand.getText(source)})`, 'remove-not', 'without !');
    } else if (ts.isNumericLiteral(node) && !isTypeContext(node)) {
      const value = Number(node.text);
      const next = nextNumber(value);
      add(node.getStart(source), node.end, next, 'constant', next);
    } else if (node.kind === ts.SyntaxKind.TrueKeyword || node.kind === ts.SyntaxKind.FalseKeyword) {
      const next = node.kind === ts.SyntaxKind.TrueKeyword ? 'false' : 'true';
      if (!isTypeContext(node)) add(node.getStart(source), node.end, next, 'constant', next);
    } else if (ts.isStringLiteral(node) && node.text.length > 0 && ts.isExpression(node) && isValueString(ts, node)) {
      add(node.getStart(source), node.end, "''", 'constant', "''");
    } else if (ts.isReturnStatement(node) && node.expression) {
      const e = node.expression;
      const literal = e.kind === ts.SyntaxKind.TrueKeyword || e.kind === ts.SyntaxKind.FalseKeyword;
      if (!literal && e.getText(source) !== 'undefined')
        add(e.getStart(source), e.end, 'undefined', 'return-value', 'return undefined');
    } else if (ts.isExpressionStatement(node) || ts.isThrowStatement(node)) {
      const e = ts.isExpressionStatement(node) ? node.expression : null;
      const effect =
        !e ||
        ts.isCallExpression(e) ||
        ts.isAwaitExpression(e) ||
        ts.isBinaryExpression(e) ||
        ts.isPostfixUnaryExpression(e);
      // A directive ('use strict') or a bare expression does nothing to drop.
      if (effect) add(node.getStart(source), node.end, ';', 'drop-statement', 'statement removed');
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  const valid: MutationSite[] = [];
  for (const s of ordered(sites)) if (await parsesAsJs(file, s.text)) valid.push(s);
  return valid;
}

/** A string that is a value (not an import path, a property key or a directive). */
function isValueString(ts: Ts, node: import('typescript').StringLiteral): boolean {
  const p = node.parent;
  if (ts.isImportDeclaration(p) || ts.isExportDeclaration(p) || ts.isExternalModuleReference(p)) return false;
  if (ts.isPropertyAssignment(p) && p.name === node) return false;
  if (ts.isElementAccessExpression(p) && p.argumentExpression === node) return false;
  if (ts.isExpressionStatement(p)) return false;
  if (ts.isCallExpression(p) && p.expression.getText() === 'require') return false;
  if (ts.isLiteralTypeNode(p)) return false;
  return true;
}
