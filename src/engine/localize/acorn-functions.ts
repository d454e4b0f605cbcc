import { parseAcorn, type AnyNode } from '../acorn-parse.js';
import type { FunctionSpan } from './types.js';

const FUNCTION = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

/**
 * The functions of a JavaScript file by acorn (a small, fast parser: JavaScript only, no recovery). Null when
 * the file does not parse (TypeScript, JSX, a syntax error). Named as jsFunctions names them.
 */
export function acornFunctions(text: string): FunctionSpan[] | null {
  const root = parseAcorn(text, true);
  if (!root) return null;
  const spans: FunctionSpan[] = [];
  const keyName = (key: AnyNode | undefined): string =>
    key?.type === 'Identifier' || key?.type === 'PrivateIdentifier'
      ? String(key.name)
      : key?.type === 'Literal'
        ? String(key.value)
        : key
          ? text.slice(key.start, key.end)
          : '(anonymous)';
  const nameOf = (node: AnyNode, parent: AnyNode | null, owner: string | null): string => {
    const id = node.id as AnyNode | null | undefined;
    if (id?.type === 'Identifier') return String(id.name);
    if (!parent) return '(anonymous)';
    if (parent.type === 'VariableDeclarator' && (parent.id as AnyNode).type === 'Identifier')
      return String((parent.id as AnyNode).name);
    if (parent.type === 'MethodDefinition' || parent.type === 'PropertyDefinition') {
      const name = parent.kind === 'constructor' ? 'constructor' : keyName(parent.key as AnyNode);
      return owner ? `${owner}.${name}` : name;
    }
    if (parent.type === 'Property') return keyName(parent.key as AnyNode);
    if (parent.type === 'AssignmentExpression') {
      const left = parent.left as AnyNode;
      return text.slice(left.start, left.end).replace(/\s+/g, '');
    }
    if (parent.type === 'ExportDefaultDeclaration') return 'default';
    return '(anonymous)';
  };
  // A function passed to a call is named by the call (`(forEach callback)`); an unnamed one by its place.
  const unnamed = (node: AnyNode, parent: AnyNode | null): string => {
    if (parent?.type !== 'CallExpression' && parent?.type !== 'NewExpression') return '(anonymous)';
    if (!(parent.arguments as AnyNode[]).includes(node)) return '(anonymous)';
    const callee = parent.callee as AnyNode;
    const called =
      callee.type === 'MemberExpression'
        ? keyName(callee.property as AnyNode)
        : callee.type === 'Identifier'
          ? String(callee.name)
          : null;
    return called ? `(${called} callback)` : '(anonymous)';
  };
  // A module wrapper (`(function (root) { ... })(this)`, UMD's factory) is the module's own scope: what it
  // runs directly runs when the module loads, whichever test loads it, so it is top-level code, not a function.
  const wrappers = new Set<AnyNode>();
  for (const statement of (root as AnyNode).body as AnyNode[]) {
    let e = statement.type === 'ExpressionStatement' ? (statement.expression as AnyNode) : null;
    while (e && (e.type === 'UnaryExpression' || e.type === 'SequenceExpression'))
      e = e.type === 'UnaryExpression' ? (e.argument as AnyNode) : (e.expressions as AnyNode[]).at(-1)!;
    if (e?.type !== 'CallExpression') continue;
    let callee = e.callee as AnyNode;
    if (callee.type === 'MemberExpression' && ['call', 'apply'].includes(String((callee.property as AnyNode).name)))
      callee = callee.object as AnyNode;
    if (!FUNCTION.has(callee.type)) continue;
    wrappers.add(callee);
    for (const arg of e.arguments as AnyNode[]) if (FUNCTION.has(arg.type)) wrappers.add(arg);
  }
  const visit = (node: AnyNode, parent: AnyNode | null, owner: string | null, outer: string | null): void => {
    let next = owner;
    let inside = outer;
    if (
      (node.type === 'ClassDeclaration' || node.type === 'ClassExpression') &&
      (node.id as AnyNode | null)?.type === 'Identifier'
    )
      next = String((node.id as AnyNode).name);
    if (FUNCTION.has(node.type) && !wrappers.has(node)) {
      let name = nameOf(node, parent, owner);
      if (name === '(anonymous)') name = `${outer ? `${outer} > ` : ''}${unnamed(node, parent)}`;
      spans.push({ name, start: node.loc!.start.line, end: node.loc!.end.line, offset: node.start });
      inside = name;
    }
    for (const value of Object.values(node)) {
      if (Array.isArray(value)) {
        for (const child of value) if ((child as AnyNode | null)?.type) visit(child as AnyNode, node, next, inside);
      } else if (
        value &&
        typeof value === 'object' &&
        typeof (value as AnyNode).type === 'string' &&
        value !== node.loc
      )
        visit(value as AnyNode, node, next, inside);
    }
  };
  visit(root as AnyNode, null, null, null);
  return spans;
}
