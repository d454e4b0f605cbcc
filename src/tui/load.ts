/**
 * Imports a TUI module with React's production build: the development build's checks cost frame time.
 * NODE_ENV is set only while React loads, so the test commands and agents fixcycle starts later do not inherit it.
 */
export async function importTui<T>(load: () => Promise<T>): Promise<T> {
  const previous = process.env.NODE_ENV;
  process.env.NODE_ENV ??= 'production';
  try {
    return await load();
  } finally {
    if (previous === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = previous;
  }
}
