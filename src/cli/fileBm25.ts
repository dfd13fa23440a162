/**
 * The natural-question eval's baseline: plain BM25 over whole files (k1 1.2, b 0.75; identifiers
 * split on camelCase and non-alphanumerics, lower-cased; the path appended; the question as
 * typed) — the baseline ../shared/eval/README.md measures for SWE-bench, over the same files the
 * product indexed. Pure and in memory: nothing of the product's search is reused, so it cannot
 * inherit the product's mistakes.
 */
import { splitIdentifier } from '../retrieval/codeTokens';

/** Words of a text: every identifier split into lower-case parts, plus the identifier itself. */
export function baselineTokens(text: string): string[] {
	const out: string[] = [];
	for (const m of text.matchAll(/[A-Za-z0-9_]+/g)) {
		const parts = splitIdentifier(m[0]);
		out.push(...parts);
		if (parts.length > 1) out.push(m[0].toLowerCase());
	}
	return out;
}

/** A BM25 index over files. */
export class FileBm25 {
	private readonly tf: Map<string, number>[] = [];
	private readonly len: number[] = [];
	private readonly df = new Map<string, number>();
	private readonly paths: string[] = [];

	constructor(files: readonly { path: string; text: string }[]) {
		for (const f of files) {
			const counts = new Map<string, number>();
			const toks = baselineTokens(`${f.text}\n${f.path}`);
			for (const t of toks) counts.set(t, (counts.get(t) ?? 0) + 1);
			for (const t of counts.keys()) this.df.set(t, (this.df.get(t) ?? 0) + 1);
			this.tf.push(counts);
			this.len.push(toks.length);
			this.paths.push(f.path);
		}
	}

	/** The paths ranked by BM25 for `query`, best first (files with no query word are left out). */
	rank(query: string, k1 = 1.2, b = 0.75): string[] {
		const n = this.paths.length;
		const avg = this.len.reduce((a, x) => a + x, 0) / Math.max(1, n);
		const q = [...new Set(baselineTokens(query))];
		const scores = this.paths.map((_, i) => {
			let s = 0;
			for (const t of q) {
				const f = this.tf[i].get(t);
				if (!f) continue;
				const df = this.df.get(t)!;
				const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
				s += (idf * f * (k1 + 1)) / (f + k1 * (1 - b + (b * this.len[i]) / avg));
			}
			return { p: this.paths[i], s };
		});
		return scores
			.filter((x) => x.s > 0)
			.sort((a, b2) => b2.s - a.s || a.p.localeCompare(b2.p))
			.map((x) => x.p);
	}
}
