// URL slugs and short labels.

/** Turns a title into a URL slug: "Crème Brûlée, 2nd Edition!" -> "creme-brulee-2nd-edition". */
export function slugify(text) {
  return String(text)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Shortens text to at most `max` characters, cutting at a word boundary and adding "…". */
export function truncate(text, max) {
  if (!Number.isInteger(max) || max < 1) throw new RangeError('truncate: max must be a positive integer');
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > 0 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
