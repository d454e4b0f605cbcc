export { toCents, formatMoney, splitEvenly } from './money.js';
export { paginate } from './paginate.js';
export { parseQuery, getParam, stringifyQuery } from './query.js';
export { slugify, truncate } from './slug.js';
export { formatDuration, parseDuration } from './duration.js';
