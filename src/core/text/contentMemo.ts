/**
 * A small bounded memo keyed by a turn's text. Earlier turns are re-read on every later turn of a
 * conversation (each decision gets the whole window), so what the rules derive from one earlier
 * turn — its normalised window, its cue hits, its word sets — is computed once per text and reused.
 * Holds derived data only: a decision is the same with or without it. Bounded (oldest entry dropped
 * first) so a long-running host keeps a few hundred entries at most.
 */
export class ContentMemo<V> {
	private readonly map = new Map<string, V>();

	constructor(private readonly max: number) {
		if (!(max >= 1)) throw new Error(`ContentMemo: max must be at least 1 (got ${max})`);
	}

	/** The memoised value for `key`, computing (and storing) it on a miss. */
	get(key: string, compute: (key: string) => V): V {
		const hit = this.map.get(key);
		if (hit !== undefined) return hit;
		const value = compute(key);
		if (this.map.size >= this.max) this.map.delete(this.map.keys().next().value as string);
		this.map.set(key, value);
		return value;
	}

	get size(): number {
		return this.map.size;
	}
}

/**
 * Per-conversation window size: the memos of earlier turns hold about this many distinct turn
 * texts (a long conversation's window plus a few interleaved conversations in one host).
 */
export const HISTORY_MEMO_TURNS = 512;
