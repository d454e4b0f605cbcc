import { parseAcorn, type AnyNode } from '../../acorn-parse.js';
import type { Node } from 'acorn';
import { describeChange, FLIPPED, nextNumber, ordered, SWAPPED } from './operators.js';
import type { MutationOperator, MutationSite } from './types.js';

/** Whether the text parses as JavaScript. */
export const parsesAsAcorn = (text: string): boolean => parseAcorn(text) !== null;

const isNode = (v: unknown): v is AnyNode =>
  typeof v === 'object' && v !== null && typeof (v as Node).type === 'string';

/**
 * The mutation sites on the changed lines of a plain JavaScript module, by acorn (small and fast: the TypeScript
 * compiler costs seconds to load on a busy machine, more than a test run). Null when the text is not plain
 * JavaScript (TypeScript, JSX): the TypeScript compiler's mutator reads those.
 */
export function acornSites(text: string, changed: ReadonlySet<number>): MutationSite[] | null {
  const root = parseAcorn(text);
  if (!root) return null;
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  const lineOf = (pos: number): number => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  const sites: (MutationSite & { order: number })[] = [];
  const add = (start: number, end: number, replacement: string, operator: MutationOperator, what: string): void => {
    const line = lineOf(start);
    if (!changed.has(line)) return;
    const mutated = text.slice(0, start) + replacement + text.slice(end);
    if (!parsesAsAcorn(mutated)) return;
    sites.push({
      line,
      operator,
      description: describeChange(text.slice(start, end), what),
      text: mutated,
      order: start,
    });
  };
  const src = (n: AnyNode): string => text.slice(n.start, n.end);
  // The operator sits between the operands: found in the text between them, past any comment or parenthesis.
  const operatorAt = (n: AnyNode, op: string): number => text.indexOf(op, (n.left as AnyNode).end);
  const visit = (n: AnyNode, parent: AnyNode | null): void => {
    const type = n.type;
    if (type === 'BinaryExpression' || type === 'LogicalExpression') {
      const op = String(n.operator);
      const at = operatorAt(n, op);
      const flipped = FLIPPED[op];
      const swapped = SWAPPED[op];
      if (at >= 0 && flipped) add(at, at + op.length, flipped, 'comparison', flipped);
      else if (at >= 0 && swapped) add(at, at + op.length, swapped[0], swapped[1], swapped[0]);
    } else if (
      (type === 'IfStatement' || type === 'WhileStatement' || type === 'ConditionalExpression') &&
      !['BinaryExpression'].includes((n.test as AnyNode).type)
    ) {
      const c = n.test as AnyNode;
      add(c.start, c.end, `!(${src(c)})`, 'negate-condition', '!(...)');
    } else if (type === 'UnaryExpression' && n.operator === '!') {
      add(n.start, n.end, `(${src(n.argument as AnyNode)})`, 'remove-not', 'without !');
    } else if (type === 'Literal') {
      const v = n.value;
      const p = parent?.type ?? '';
      const key =
        (parent?.key === n && !parent?.computed) || p === 'ImportDeclaration' || p === 'ExportNamedDeclaration';
      const directive = p === 'ExpressionStatement' || p === 'ImportExpression' || p === 'ExportAllDeclaration';
      const required =
        p === 'CallExpression' &&
        (parent!.callee as AnyNode).type === 'Identifier' &&
        (parent!.callee as AnyNode).name === 'require';
      if (typeof v === 'number') add(n.start, n.end, nextNumber(v), 'constant', nextNumber(v));
      else if (typeof v === 'boolean') add(n.start, n.end, String(!v), 'constant', String(!v));
      else if (typeof v === 'string' && v.length > 0 && !key && !directive && !required)
        add(n.start, n.end, "''", 'constant', "''");
    } else if (type === 'ReturnStatement' && n.argument) {
      const a = n.argument as AnyNode;
      if (!(a.type === 'Literal' && typeof a.value === 'boolean') && src(a) !== 'undefined')
        add(a.start, a.end, 'undefined', 'return-value', 'return undefined');
    }
    if (type === 'ThrowStatement' || (type === 'ExpressionStatement' && !n.directive)) {
      const e = n.expression as AnyNode | undefined;
      const effect =
        !e || ['CallExpression', 'AwaitExpression', 'AssignmentExpression', 'UpdateExpression'].includes(e.type);
      if (effect) add(n.start, n.end, ';', 'drop-statement', 'statement removed');
    }
    for (const [key, value] of Object.entries(n)) {
      if (key === 'type') continue;
      if (Array.isArray(value)) {
        for (const c of value) if (isNode(c)) visit(c, n);
      } else if (isNode(value)) visit(value, n);
    }
  };
  visit(root as AnyNode, null);
  return ordered(sites);
}
