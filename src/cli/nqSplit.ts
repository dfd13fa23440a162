/**
 * The natural-question set's dev/test split (issue 15 item 6): within each repository, questions
 * ordered by the SHA-256 of their id; the first half (rounded up) is dev, the rest test. Fixed by
 * the ids alone, so it never depends on file order or on what a run measured.
 */
import { createHash } from 'node:crypto';

export type NqSplit = 'dev' | 'test';

/** id → split for rows with `id` and `repo`. */
export function nqSplit(rows: readonly { id: string; repo: string }[]): Map<string, NqSplit> {
	const byRepo = new Map<string, string[]>();
	for (const r of rows) byRepo.set(r.repo, [...(byRepo.get(r.repo) ?? []), r.id]);
	const out = new Map<string, NqSplit>();
	for (const ids of byRepo.values()) {
		const sorted = [...ids].sort((a, b) => hash(a).localeCompare(hash(b)));
		const dev = Math.ceil(sorted.length / 2);
		sorted.forEach((id, i) => out.set(id, i < dev ? 'dev' : 'test'));
	}
	return out;
}

function hash(id: string): string {
	return createHash('sha256').update(id).digest('hex');
}
