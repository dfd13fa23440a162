/**
 * From what the user typed to what the full-text arm searches: salient terms only (identifiers,
 * paths, error names and content words; chatter and stop words dropped), identifiers kept intact
 * and also split, capped in number. The result is recorded as `searched_query`.
 */
import { splitIdentifier } from './codeTokens';

// Chat filler that carries no search meaning; Postgres drops English stop words itself.
const CHATTER = new Set(
	'please pls thanks thank you hi hello hey can could would should will shall i me my we our us you your it its this that these those there here what which who whom how why when where is are was were be been being do does did done have has had a an the and or but if then else of to in on at by for with from about into over as so just also really very some any all no not only show tell give explain find help want need know get let make like look see use using used one ok okay'.split(
		' ',
	),
);

const TOKEN = /[A-Za-z_$][A-Za-z0-9_$]*(?:[./\\-][A-Za-z0-9_$]+)*|\d+/g;

function isCompound(t: string): boolean {
	return /[a-z][A-Z]|_|[./\\-]/.test(t);
}

/** The salient terms of a query: compound identifiers and paths first, then other words; deduplicated. */
export function salientTerms(query: string, max: number): string[] {
	return allSalientTerms(query).slice(0, max);
}

/** Every salient term of a query, uncapped, in salientTerms' order. */
export function allSalientTerms(query: string): string[] {
	const compound: string[] = [];
	const words: string[] = [];
	const seen = new Set<string>();
	for (const m of query.matchAll(TOKEN)) {
		const t = m[0];
		const key = t.toLowerCase();
		if (seen.has(key) || CHATTER.has(key) || (t.length < 2 && !/\d/.test(t))) continue;
		seen.add(key);
		(isCompound(t) ? compound : words).push(t);
	}
	return [...compound, ...words];
}

/** How often the query writes each term (case-insensitive, by its salient-term key). */
export function queryTermCounts(query: string): Map<string, number> {
	const counts = new Map<string, number>();
	for (const m of query.matchAll(TOKEN)) {
		const key = m[0].toLowerCase();
		counts.set(key, (counts.get(key) ?? 0) + 1);
	}
	return counts;
}

/**
 * Which of a long query's terms to search, given each term's weight in the index (termSelection.ts:
 * its BM25 query weight, qtf × idf; 0 = none of its lexemes is indexed): at or under `max` terms,
 * all of them, unchanged; over it, terms of weight 0 are dropped (they cannot match and only take
 * a slot) and the `max` heaviest of the rest (equal weight keeps the earlier term) are kept, in
 * their original order. If no term occurs at all, the first `max` (nothing can match; the trace
 * still shows what was searched).
 */
export function selectByWeight(terms: readonly string[], weights: readonly number[], max: number): string[] {
	if (terms.length <= max) return [...terms];
	const present = terms.map((_, i) => i).filter((i) => weights[i] > 0);
	if (!present.length) return terms.slice(0, max);
	const kept = present
		.sort((a, b) => weights[b] - weights[a] || a - b)
		.slice(0, max)
		.sort((a, b) => a - b);
	return kept.map((i) => terms[i]);
}

/** The full-text query text: salient terms, each compound one followed by its split parts. */
export function ftsQueryText(terms: readonly string[]): string {
	return terms.map((t) => (isCompound(t) ? `${t} ${splitIdentifier(t).join(' ')}` : t)).join(' ');
}

/** The query actually searched for a turn, and the terms borrowed from earlier turns. */
export interface FormulatedQuery {
	query: string;
	borrowed: string[];
}

// Terms worth carrying over from earlier turns: identifiers, paths and file names, error names.
function carriesOver(term: string): boolean {
	return isCompound(term) || /(?:Error|Exception|Warning)$/.test(term) || /^[A-Z][a-z]+[A-Z]/.test(term);
}

/**
 * Builds the search query from the turn rather than copying it: chatter is stripped, identifiers
 * stay intact, and for a follow-up ("why does it fail?") the identifiers, file and error names of
 * the most recent earlier turns are added (newest first, at most `maxBorrowed`).
 */
export function formulateQuery(
	utterance: string,
	earlierTurns: readonly string[],
	isFollowup: boolean,
	maxTerms: number,
	maxBorrowed = 8,
): FormulatedQuery {
	const own = salientTerms(utterance, maxTerms);
	const borrowed: string[] = [];
	if (isFollowup) {
		const seen = new Set(own.map((t) => t.toLowerCase()));
		for (const turn of [...earlierTurns].reverse()) {
			for (const t of salientTerms(turn, maxTerms)) {
				if (borrowed.length >= maxBorrowed) break;
				if (carriesOver(t) && !seen.has(t.toLowerCase())) {
					seen.add(t.toLowerCase());
					borrowed.push(t);
				}
			}
		}
	}
	return { query: [...own, ...borrowed].join(' '), borrowed };
}
