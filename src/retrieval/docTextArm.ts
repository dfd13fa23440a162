/**
 * The doc-text list (issue 15 item 5): paraphrased and how-to questions describe behaviour in
 * words ("pull a version out of a messy string"), and code says the same in its docstrings,
 * comments and definition names ("Coerce a string into a SemVer", `coerce`), not in its body.
 * BM25 over a whole chunk lets the body's identifiers outvote that prose; this ranks the pool's
 * chunks by BM25 over their prose alone (docstrings, comments, split definition names), with a
 * light stemmer so "compared" meets "compare", and the caller fuses the list (RRF) with the
 * rest. Pure: text in, ranks out; document frequencies are the pool's own.
 */
import { splitIdentifier } from './codeTokens';

/** BM25 over prose: short texts, so length matters less than in the full-text arm. */
const K1 = 1.2;
const B = 0.5;

const STOP = new Set(
	(
		'a an and are as at be been but by can could do does did for from has have how i if in into is it its ' +
		'me my no not of on or our so that the their them then there these they this to was we were what when ' +
		'where which while who why will with would you your get gets make use used using want way should ' +
		'code function method file where does happen happens thing things some any also just like need'
	).split(' '),
);

/** A word's light stem: lower-case, common English suffixes off (compared → compar, matching → match). */
export function stem(word: string): string {
	let w = word.toLowerCase();
	if (w.length <= 3) return w;
	for (const [suffix, min] of [
		['ational', 4],
		['ization', 4],
		['ingly', 4],
		['ations', 4],
		['ation', 4],
		['ments', 4],
		['ment', 4],
		['ness', 4],
		['ing', 4],
		['ies', 3],
		['ied', 3],
		['ers', 4],
		['er', 4],
		['ed', 4],
		['es', 4],
		['ly', 4],
		['s', 3],
	] as const) {
		if (w.endsWith(suffix) && w.length - suffix.length >= min) {
			w = w.slice(0, -suffix.length);
			break;
		}
	}
	return w.endsWith('e') && w.length > 4 ? w.slice(0, -1) : w;
}

/** The content words of a text (identifiers split into words), stemmed, stop words out. */
export function proseTerms(text: string): string[] {
	const out: string[] = [];
	for (const m of text.matchAll(/[A-Za-z_$][A-Za-z0-9_$]*/g)) {
		for (const w of splitIdentifier(m[0])) {
			if (w.length < 3 || STOP.has(w) || /^\d/.test(w)) continue;
			out.push(stem(w));
		}
	}
	return out;
}

const DOCSTRING = /("""|''')([\s\S]*?)\1/g;
const BLOCK_COMMENT = /\/\*+([\s\S]*?)\*\//g;
// A line comment: #, //, ///, //!, -- (not inside a string is not checked: prose in strings is prose too).
const LINE_COMMENT = /(?:^|\s)(?:#|\/\/[/!]?|--)\s?(.*)$/gm;
const DEFINITION_NAME =
	/\b(?:def|class|function|func|fn|interface|type|struct|enum|trait|impl)\s+(?:\([^)]*\)\s*)?([A-Za-z_$][\w$]*)|\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:\([^)]*\)|[A-Za-z_$][\w$]*)\s*=>|^\s*([A-Za-z_$][\w$]*)\s*\([^)]*\)\s*\{/gm;

/** The prose of a chunk: its docstrings, comments and the names it defines (split into words). */
export function chunkProse(content: string): string {
	const parts: string[] = [];
	for (const m of content.matchAll(DOCSTRING)) parts.push(m[2]);
	for (const m of content.matchAll(BLOCK_COMMENT)) parts.push(m[1]);
	for (const m of content.matchAll(LINE_COMMENT)) parts.push(m[1]);
	for (const m of content.matchAll(DEFINITION_NAME)) parts.push(m[1] ?? m[2] ?? m[3] ?? '');
	return parts.join('\n');
}

/**
 * The keys of `chunks` ranked by BM25 of the query's content words over each chunk's prose
 * (document frequencies over these chunks); chunks whose prose holds none of the words are left
 * out. Ties keep the given order.
 */
export function rankByProse(query: string, chunks: readonly { key: string; content: string }[]): string[] {
	const q = [...new Set(proseTerms(query))];
	if (!q.length || !chunks.length) return [];
	const docs = chunks.map((c) => {
		const terms = proseTerms(chunkProse(c.content));
		const tf = new Map<string, number>();
		for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
		return { key: c.key, tf, len: terms.length };
	});
	const n = docs.length;
	const avg = Math.max(1, docs.reduce((s, d) => s + d.len, 0) / n);
	const df = new Map(q.map((t) => [t, docs.filter((d) => d.tf.has(t)).length]));
	const scored = docs.map((d, i) => {
		let s = 0;
		for (const t of q) {
			const f = d.tf.get(t);
			if (!f) continue;
			const idf = Math.log(1 + (n - df.get(t)! + 0.5) / (df.get(t)! + 0.5));
			s += (idf * f * (K1 + 1)) / (f + K1 * (1 - B + (B * d.len) / avg));
		}
		return { key: d.key, s, i };
	});
	return scored
		.filter((x) => x.s > 0)
		.sort((a, b) => b.s - a.s || a.i - b.i)
		.map((x) => x.key);
}

/**
 * Fuses the prose ranking into an order: score = 1/(rrfK + position) + weight/(rrfK + prose rank),
 * stable; `keepFirst` keys stay where they are, at the front. weight 0 returns the order unchanged.
 */
export function fuseProse<T>(
	ordered: readonly T[],
	keyOf: (t: T) => string,
	proseRanked: readonly string[],
	weight: number,
	rrfK: number,
	keepFirst: ReadonlySet<string> = new Set(),
): T[] {
	if (weight <= 0 || !proseRanked.length) return [...ordered];
	const rank = new Map(proseRanked.map((k, i) => [k, i + 1]));
	const scored = ordered.map((t, i) => {
		const key = keyOf(t);
		const r = rank.get(key);
		return { t, i, pinned: keepFirst.has(key), s: 1 / (rrfK + i + 1) + (r ? weight / (rrfK + r) : 0) };
	});
	scored.sort((a, b) => Number(b.pinned) - Number(a.pinned) || (a.pinned ? a.i - b.i : b.s - a.s || a.i - b.i));
	return scored.map((x) => x.t);
}
