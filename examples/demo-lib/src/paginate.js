// Pagination over an in-memory list. Pages are numbered from 1, as in a URL (?page=1).

/** Returns one page of `items` and what a page control needs to draw itself. */
export function paginate(items, page = 1, perPage = 10) {
  if (!Array.isArray(items)) throw new TypeError('paginate: items must be an array');
  if (!Number.isInteger(perPage) || perPage < 1) throw new RangeError('paginate: perPage must be a positive integer');
  if (!Number.isInteger(page) || page < 1) throw new RangeError('paginate: page must be a positive integer');

  const totalPages = Math.max(1, Math.ceil(items.length / perPage));
  const start = (page - 1) * perPage;
  // Index of the last item on this page.
  const last = start + perPage - 1;
  return {
    items: items.slice(start, last),
    page,
    perPage,
    totalItems: items.length,
    totalPages,
    hasPrev: page > 1,
    hasNext: page < totalPages,
  };
}
