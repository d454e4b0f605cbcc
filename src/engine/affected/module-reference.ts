/** A module a file loads at run time: `./a.js`, `@/lib/b`, or a glob such as `./locales/*.js`. */
export interface ModuleReference {
  specifier: string;
  /** True for a template-literal argument (`import(`./locales/${x}.js`)`): `*` stands for each substitution. */
  glob: boolean;
  /** Erased by TypeScript (`import type`, `export type ... from`, `typeof import('x')`). */
  typeOnly: boolean;
}
