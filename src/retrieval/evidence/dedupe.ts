/**
 * Near-duplicate detection between chunks: word-trigram Jaccard for copied text, and line-range
 * overlap for overlapping chunk windows of one file.
 */
import type { EvidenceCandidate } from './types';

/** Lower-cased word trigrams (single words for texts shorter than three words). */
export function shingles(text: string): Set<string> {
	const words = text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
	if (words.length < 3) return new Set(words);
	const out = new Set<string>();
	for (let i = 0; i + 2 < words.length; i++) out.add(`${words[i]} ${words[i + 1]} ${words[i + 2]}`);
	return out;
}

/** |A ∩ B| / |A ∪ B|; two empty sets are identical (1). */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
	if (a.size === 0 && b.size === 0) return 1;
	let inter = 0;
	const [small, large] = a.size <= b.size ? [a, b] : [b, a];
	for (const x of small) if (large.has(x)) inter++;
	return inter / (a.size + b.size - inter);
}

/** Share of the shorter chunk's lines that the other chunk also covers (same file only; else 0). */
export function lineOverlap(a: EvidenceCandidate, b: EvidenceCandidate): number {
	const ha = a.hit;
	const hb = b.hit;
	if (ha.path === null || ha.path !== hb.path) return 0;
	if (ha.start_line === null || ha.end_line === null || hb.start_line === null || hb.end_line === null) return 0;
	const inter = Math.min(ha.end_line, hb.end_line) - Math.max(ha.start_line, hb.start_line) + 1;
	if (inter <= 0) return 0;
	const shorter = Math.min(ha.end_line - ha.start_line + 1, hb.end_line - hb.start_line + 1);
	return inter / shorter;
}

/** Finds which already-kept chunk `c` repeats, if any, and says why. */
export class DuplicateFinder {
	private readonly kept: { c: EvidenceCandidate; sh: Set<string> }[] = [];
	constructor(
		private readonly jaccardMin: number,
		private readonly overlapMin: number,
	) {}

	/** The reason `c` duplicates a kept chunk, or null. */
	duplicateOf(c: EvidenceCandidate): string | null {
		// Shingles only when a Jaccard test is reached, and kept for keep(c) (the usual next call).
		let sh: Set<string> | null = null;
		for (const k of this.kept) {
			if (k.c.hit.chunk_id === c.hit.chunk_id) return `same chunk as ${k.c.hit.chunk_id}`;
			const ov = lineOverlap(k.c, c);
			if (ov >= this.overlapMin) return `overlaps ${k.c.hit.chunk_id} by ${Math.round(ov * 100)}% of its lines`;
			sh ??= this.shinglesOf(c);
			const j = jaccard(k.sh, sh);
			if (j >= this.jaccardMin) return `near-duplicate of ${k.c.hit.chunk_id} (Jaccard ${j.toFixed(2)})`;
		}
		return null;
	}

	/** Records a kept chunk. */
	keep(c: EvidenceCandidate): void {
		this.kept.push({ c, sh: this.shinglesOf(c) });
	}

	private last: { text: string; sh: Set<string> } | null = null;

	private shinglesOf(c: EvidenceCandidate): Set<string> {
		if (this.last?.text !== c.text) this.last = { text: c.text, sh: shingles(c.text) };
		return this.last.sh;
	}
}
