/**
 * The SWE-bench Lite swe-dev / swe-test split (issue 15 item 1): the natural-question rule (SHA-256
 * of the instance id, first half per project rounded up is dev) applied to ALL rows of the shared
 * file, before rows are dropped for a gold file missing in Debian's version — so the split is fixed
 * by the ids alone and does not move when a package version changes. Only ids are written (the
 * shared data is not copied into the repository).
 */
import { nqSplit, type NqSplit } from './nqSplit.js';

export interface SweSplitIds {
	dev: string[];
	test: string[];
}

/** Rows with `id` and `repo` (e.g. `django/django`) → ids per half, each in input order. */
export function sweSplitIds(rows: readonly { id: string; repo: string }[]): SweSplitIds {
	const seen = new Set<string>();
	for (const r of rows) {
		if (!r.id || !r.repo) throw new Error(`SWE row without id or repo: ${JSON.stringify(r).slice(0, 80)}`);
		if (seen.has(r.id)) throw new Error(`duplicate SWE instance id ${r.id}`);
		seen.add(r.id);
	}
	const split = nqSplit(rows);
	const out: Record<NqSplit, string[]> = { dev: [], test: [] };
	for (const r of rows) out[split.get(r.id) ?? 'test'].push(r.id);
	return out;
}
