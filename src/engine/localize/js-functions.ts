import type { FunctionSpan } from './types.js';

type Ts = typeof import('typescript');
let loaded: Promise<Ts> | null = null;

/** The TypeScript compiler, loaded on first use: only localization needs it at run time. */
export function typescript(): Promise<Ts> {
  loaded ??= import('typescript').then((m) => ((m as { default?: Ts }).default ?? m) as Ts);
  return loaded;
}

/**
 * The functions of a JS/TS file, by the TypeScript compiler's parser (it reads JavaScript too and
 * recovers from syntax errors): declarations, methods, accessors, and function expressions and arrows
 * named by what they are assigned to (`exports.parse = function`, `Foo.prototype.bar = () =>`).
 */
export async function jsFunctions(file: string, text: string): Promise<FunctionSpan[]> {
  const ts = await typescript();
  const kind = /\.[cm]?tsx$|\.jsx$/.test(file)
    ? ts.ScriptKind.TSX
    : /\.[cm]?ts$/.test(file)
      ? ts.ScriptKind.TS
      : ts.ScriptKind.JS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const spans: FunctionSpan[] = [];
  const lineOf = (pos: number): number => source.getLineAndCharacterOfPosition(pos).line + 1;
  const nameOf = (node: import('typescript').Node): string => {
    const own = (node as { name?: import('typescript').Node }).name;
    if (own && (ts.isIdentifier(own) || ts.isStringLiteral(own) || ts.isPrivateIdentifier(own))) return own.text;
    if (ts.isConstructorDeclaration(node)) return 'constructor';
    const parent = node.parent;
    if (ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
    if ((ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && parent.name)
      return parent.name.getText(source);
    if (ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken)
      return parent.left.getText(source).replace(/\s+/g, '');
    if (ts.isExportAssignment(parent)) return 'default';
    return '(anonymous)';
  };
  // A function passed to a call is named by the call (`(forEach callback)`), after the function it is in.
  const unnamed = (node: import('typescript').Node): string => {
    const call = node.parent;
    if (!(ts.isCallExpression(call) || ts.isNewExpression(call)) || !call.arguments?.some((a) => a === node))
      return '(anonymous)';
    const callee = call.expression;
    const called = ts.isPropertyAccessExpression(callee)
      ? callee.name.text
      : ts.isIdentifier(callee)
        ? callee.text
        : null;
    return called ? `(${called} callback)` : '(anonymous)';
  };
  // A module wrapper (`(function (root) { ... })(this)`, UMD's factory) is the module's own scope: what it
  // runs directly runs when the module loads, whichever test loads it, so it is top-level code, not a function.
  const wrappers = new Set<import('typescript').Node>();
  const bare = (e: import('typescript').Expression): import('typescript').Expression => {
    let x = e;
    while (ts.isParenthesizedExpression(x) || ts.isPrefixUnaryExpression(x) || ts.isVoidExpression(x))
      x = ts.isParenthesizedExpression(x) ? x.expression : ts.isVoidExpression(x) ? x.expression : x.operand;
    return x;
  };
  for (const statement of source.statements) {
    if (!ts.isExpressionStatement(statement)) continue;
    const call = bare(statement.expression);
    if (!ts.isCallExpression(call)) continue;
    let callee = bare(call.expression);
    if (ts.isPropertyAccessExpression(callee) && ['call', 'apply'].includes(callee.name.text))
      callee = bare(callee.expression);
    if (!ts.isFunctionExpression(callee) && !ts.isArrowFunction(callee)) continue;
    wrappers.add(callee);
    for (const arg of call.arguments) if (ts.isFunctionExpression(arg) || ts.isArrowFunction(arg)) wrappers.add(arg);
  }
  const visit = (node: import('typescript').Node, owner: string | null, outer: string | null): void => {
    let next = owner;
    let inside = outer;
    if (ts.isClassDeclaration(node) || ts.isClassExpression(node)) next = node.name?.text ?? owner;
    if (ts.isFunctionLike(node) && (node as { body?: unknown }).body && !wrappers.has(node)) {
      let name = nameOf(node);
      const member =
        ts.isMethodDeclaration(node) ||
        ts.isConstructorDeclaration(node) ||
        ts.isGetAccessorDeclaration(node) ||
        ts.isSetAccessorDeclaration(node) ||
        (ts.isPropertyDeclaration(node.parent) && owner);
      if (member && owner) name = `${owner}.${name}`;
      if (name === '(anonymous)') name = `${outer ? `${outer} > ` : ''}${unnamed(node)}`;
      const at = node.getStart(source);
      spans.push({ name, start: lineOf(at), end: lineOf(node.getEnd()), offset: at });
      inside = name;
    }
    ts.forEachChild(node, (child) => visit(child, next, inside));
  };
  visit(source, null, null);
  return spans;
}
