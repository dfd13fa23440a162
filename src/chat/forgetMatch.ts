/**
 * Which stored memories a chat "forget that …" names: the store's own search proposes candidates
 * (research by hybrid search, the profile by full text); this decides, by the share of the
 * request's content words a candidate contains, which are matches (at least
 * `forget_match_min_overlap`) and whether one is clearly meant. Nothing below the floor is ever
 * forgotten; several equally good matches are listed for the user to pick. Pure; no I/O.
 */

/** A stored memory the search proposed. */
export interface ForgetCandidate {
	tier: 'research' | 'profile' | 'instruction';
	workspaceId: string;
	/** research: the memory's doc id; profile / instruction: the profile key. */
	id: string;
	/** What the user sees (the memory's text, or "key: value"). */
	text: string;
}

export interface ScoredCandidate extends ForgetCandidate {
	/** Share of the request's content words found in the candidate (0–1). */
	overlap: number;
}

/** What to do: forget one, ask which of several, or say nothing matched. */
export type ForgetChoice =
	| { kind: 'one'; target: ScoredCandidate }
	| { kind: 'several'; candidates: ScoredCandidate[] }
	| { kind: 'none'; nearest: ScoredCandidate | null };

/** Most candidates listed when several match. */
export const MAX_LISTED = 5;

const STOP = new Set(
	'a an the that this these those is are was were be been it its of on in at to for from with by and or but as about what which who i me my we our you your they their there here than then so do does did not no just also please memory note fact said told'.split(
		' ',
	),
);

/** Lower-cased content words, a plural's s dropped ("flags" matches "flag"). */
export function contentWords(text: string): string[] {
	const words = text.toLowerCase().match(/[\p{L}\p{N}_][\p{L}\p{N}_.-]*[\p{L}\p{N}_]|[\p{L}\p{N}]/gu) ?? [];
	return [
		...new Set(words.filter((w) => !STOP.has(w)).map((w) => (w.length > 3 && w.endsWith('s') ? w.slice(0, -1) : w))),
	];
}

/** Share of the query's content words that the text contains. */
export function overlap(query: string, text: string): number {
	const q = contentWords(query);
	if (!q.length) return 0;
	const t = new Set(contentWords(text));
	return q.filter((w) => t.has(w)).length / q.length;
}

/**
 * One match → forget it; several → the one that holds every word of the request when it alone
 * does, else ask (at most MAX_LISTED, best first); none above the floor → nothing.
 */
export function chooseForget(query: string, candidates: readonly ForgetCandidate[], floor: number): ForgetChoice {
	const scored = candidates
		.map((c) => ({ ...c, overlap: overlap(query, c.text) }))
		.sort((a, b) => b.overlap - a.overlap);
	const matches = scored.filter((c) => c.overlap >= floor);
	if (!matches.length) return { kind: 'none', nearest: scored[0] ?? null };
	if (matches.length === 1) return { kind: 'one', target: matches[0] };
	const full = matches.filter((c) => c.overlap === 1);
	if (full.length === 1) return { kind: 'one', target: full[0] };
	return { kind: 'several', candidates: matches.slice(0, MAX_LISTED) };
}
