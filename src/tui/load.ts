/**
 * Imports a TUI module with React's production build: the development build's checks cost frame time.
 * NODE_ENV is set only while React loads, so the test commands and agents fixcycle starts later do not inherit it.
 * (The bundled CLI has React's production build compiled in; this matters for the unbundled modules.)
 */
export async function importTui<T>(load: () => Promise<T>): Promise<T> {
  // Through an alias: the bundler replaces the literal `process.env.NODE_ENV` with "production".
  const env = process.env;
  const previous = env.NODE_ENV;
  env.NODE_ENV ??= 'production';
  try {
    return await load();
  } finally {
    if (previous === undefined) delete env.NODE_ENV;
    else env.NODE_ENV = previous;
  }
}
