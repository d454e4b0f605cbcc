import writeFileAtomic from 'write-file-atomic';

// Through a temp file and a rename, without fsync: the rename alone is what a resume needs (a killed or
// crashed fixcycle leaves the old file or the new one, never half of one), and ext4 orders a rename that
// replaces a file after its data. fsync would add power-loss durability at 5-30 ms a write, and a run
// writes its state, results and summary several times on the way to the exit.
const options = { encoding: 'utf8', fsync: false } as const;

/** Writes a file through a temp file and a rename, so readers never see it half-written. */
export async function writeTextAtomic(path: string, text: string): Promise<void> {
  await writeFileAtomic(path, text, options);
}

export async function writeJsonAtomic(path: string, value: unknown): Promise<void> {
  await writeTextAtomic(path, JSON.stringify(value, null, 2) + '\n');
}
