import { readFileSync } from 'node:fs';
import { isObject, type Json } from './parse-output.js';

/** The variables of `defaults` the user has not set: their own environment wins. */
export function unlessUserSet(defaults: Record<string, string>, userEnv: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(defaults).filter(([name]) => userEnv[name] === undefined || userEnv[name] === ''),
  );
}

/** JSON with comments and trailing commas, as the CLIs accept in their settings files. */
export function parseJsonc(text: string): unknown {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      const end = stringEnd(text, i);
      out += text.slice(i, end);
      i = end - 1;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (c === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      i = close < 0 ? text.length : close + 1;
    } else out += c;
  }
  return JSON.parse(out.replace(/,(\s*[}\]])/g, '$1'));
}

function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i + 1;
  }
  return text.length;
}

/** A user's settings file, or {} when it is absent or unreadable (the CLI itself reports a broken one). */
export function readUserSettings(path: string): Json {
  try {
    const doc = parseJsonc(readFileSync(path, 'utf8'));
    return isObject(doc) ? doc : {};
  } catch {
    return {};
  }
}

/** `defaults` with `user` on top, object by object: whatever the user set wins. */
export function mergeUnder(defaults: Json, user: Json): Json {
  const merged: Json = { ...defaults };
  for (const [key, value] of Object.entries(user)) {
    const base = merged[key];
    merged[key] = isObject(base) && isObject(value) ? mergeUnder(base, value) : value;
  }
  return merged;
}
