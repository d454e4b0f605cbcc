import writeFileAtomic from 'write-file-atomic';

/** Writes a file through a temp file and a rename, so readers never see it half-written. */
export async function writeTextAtomic(path: string, text: string): Promise<void> {
  await writeFileAtomic(path, text, { encoding: 'utf8' });
}

export async function writeJsonAtomic(path: string, value: unknown): Promise<void> {
  await writeTextAtomic(path, JSON.stringify(value, null, 2) + '\n');
}
