const SCRIPT = /\.[cm]?[jt]sx?$/;
const DECLARATION = /\.d\.[cm]?ts$/;

/** True for a JS/TS source file (not a `.d.ts`). */
export function isScriptFile(path: string): boolean {
  return SCRIPT.test(path) && !DECLARATION.test(path);
}
