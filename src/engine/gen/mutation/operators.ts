import type { MutationOperator, MutationSite } from './types.js';

/** Each comparison's opposite: a test pinning the boundary or the outcome fails on it. */
export const FLIPPED: Record<string, string> = {
  '<': '>=',
  '<=': '>',
  '>': '<=',
  '>=': '<',
  '==': '!=',
  '!=': '==',
  '===': '!==',
  '!==': '===',
};

/** Binary operators swapped for their partner. */
export const SWAPPED: Record<string, [string, MutationOperator]> = {
  '&&': ['||', 'logical'],
  '||': ['&&', 'logical'],
  '+': ['-', 'arithmetic'],
  '-': ['+', 'arithmetic'],
  '*': ['/', 'arithmetic'],
  '/': ['*', 'arithmetic'],
};

/** Within one line, the operators tried first: those most tests of the change can see. */
const PRIORITY: MutationOperator[] = [
  'comparison',
  'negate-condition',
  'logical',
  'remove-not',
  'return-value',
  'constant',
  'arithmetic',
  'drop-statement',
];

/** A numeric constant's replacement: 0 and 1 swap, any other grows by one. */
export const nextNumber = (value: number): string => (value === 0 ? '1' : value === 1 ? '0' : String(value + 1));

/** `before -> after`, the before shortened to one short line. */
export function describeChange(before: string, after: string): string {
  const flat = before.replace(/\s+/g, ' ');
  return `${flat.length > 60 ? `${flat.slice(0, 57)}...` : flat} -> ${after}`;
}

/** Sites in line order, the likelier-seen operators of a line first, then by position. */
export function ordered(sites: (MutationSite & { order: number })[]): MutationSite[] {
  const rank = (s: MutationSite): number => PRIORITY.indexOf(s.operator);
  return sites
    .sort((a, b) => a.line - b.line || rank(a) - rank(b) || a.order - b.order)
    .map(({ order: _order, ...s }) => s);
}
