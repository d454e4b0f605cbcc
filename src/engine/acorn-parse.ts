import { parse, type Node } from 'acorn';

/** An acorn node with its fields readable by name (acorn's types name only the common ones). */
export type AnyNode = Node & Record<string, unknown>;

/**
 * A JavaScript file parsed by acorn as a module, else as a script (CommonJS: a `return` at the top level). Null
 * when it parses as neither (TypeScript, JSX, a syntax error): the caller falls back to a parser that reads those.
 */
export function parseAcorn(text: string, locations = false): Node | null {
  for (const sourceType of ['module', 'script'] as const) {
    try {
      return parse(text, {
        ecmaVersion: 'latest',
        sourceType,
        locations,
        allowHashBang: true,
        allowReturnOutsideFunction: sourceType === 'script',
        allowAwaitOutsideFunction: true,
      });
    } catch {
      // the other source type, then null
    }
  }
  return null;
}
