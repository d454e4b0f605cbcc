// Query strings: "?tag=a&tag=b&q=hello+world" <-> { tag: ['a', 'b'], q: 'hello world' }.

function decode(text) {
  return decodeURIComponent(text.replace(/\+/g, ' '));
}

/** Parses a query string (with or without the leading "?"). Repeated keys become arrays. */
export function parseQuery(search) {
  const text = search.startsWith('?') ? search.slice(1) : search;
  const params = {};
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const key = decode(eq === -1 ? pair : pair.slice(0, eq));
    const value = eq === -1 ? '' : decode(pair.slice(eq + 1));
    const previous = params[key];
    if (previous === undefined) params[key] = value;
    else if (Array.isArray(previous)) previous.push(value);
    else params[key] = [previous, value];
  }
  return params;
}

/** Reads one parameter of a URL or path: getParam('/search?q=x', 'q') -> 'x'. */
export function getParam(url, name) {
  const withoutHash = url.split('#')[0];
  const search = withoutHash.split('?')[1];
  return parseQuery(search)[name];
}

/** The reverse of parseQuery: keys in insertion order, arrays as repeated keys, undefined values left out. */
export function stringifyQuery(params) {
  const parts = [];
  for (const [key, value] of Object.entries(params)) {
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) {
      if (v === undefined) continue;
      parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(v))}`);
    }
  }
  return parts.join('&');
}
