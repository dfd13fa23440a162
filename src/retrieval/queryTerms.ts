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
	return [...compound, ...words].slice(0, max);
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
