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
