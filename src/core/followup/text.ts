/**
 * Tokenising for the follow-up scorer. Everything matches whole words or whole phrases over a
 * token list, never substrings: "pytest" must not count as "test", nor "edit" as "it".
 */

/** One word of a message: lower-cased text plus whether it was written capitalised mid-sentence. */
export interface Token {
	/** Lower-case form, apostrophes straightened ("it's", "what's"). */
	word: string;
	/** Written with a capital (or all caps) and not the first word of a sentence: a name. */
	name: boolean;
	/** Looks like code: camelCase, snake_case, a dotted path, a file name or a call. */
	code: boolean;
	/** Index of the sentence the token belongs to (0-based), for sentence-initial checks. */
	sentence: number;
	/** Index of the clause: a new one starts at each sentence, comma, semicolon and "and"/"but" + wh-word. */
	clause: number;
}

// A word, or a code-ish identifier (dots, slashes, underscores, hyphens, trailing "()").
const TOKEN_RE = /[\p{L}\p{N}_$][\p{L}\p{N}_$'’./\\-]*(?:\(\))?|[.!?;:]+|```|,/gu;
const WH_WORDS = new Set(['what', 'why', 'how', 'where', 'when', 'which', 'who', 'is', 'are', 'does', 'do', 'can']);
const SENTENCE_END_RE = /^[.!?;:]+$/;
const CODE_RE = /[a-z][A-Z]|_|\.[A-Za-z]|\/|\\|\(\)|^\$/;
const CAPITAL_RE = /^\p{Lu}/u;

/**
 * Splits a message into word tokens. Sentence punctuation is consumed (it only advances the
 * sentence counter); trailing dots and hyphens of a word are dropped.
 */
export function tokenize(text: string): Token[] {
	const out: Token[] = [];
	let sentence = 0;
	let clause = 0;
	let first = true;
	for (const m of text.matchAll(TOKEN_RE)) {
		let raw = m[0];
		if (raw === ',') {
			clause++;
			continue;
		}
		if (raw === '```' || SENTENCE_END_RE.test(raw)) {
			sentence++;
			clause++;
			first = true;
			continue;
		}
		raw = raw.replace(/[.'’-]+$/u, '');
		if (raw === '') continue;
		const code = CODE_RE.test(raw);
		out.push({
			word: raw.toLowerCase().replace(/’/g, "'"),
			name: !first && !code && CAPITAL_RE.test(raw) && raw !== 'I' && !raw.startsWith("I'"),
			code,
			sentence,
			clause,
		});
		first = false;
	}
	markConjoinedQuestions(out);
	return out;
}

/** "X and why is it …": a conjunction before a wh-word or auxiliary opens a new clause. */
function markConjoinedQuestions(tokens: Token[]): void {
	let shift = 0;
	for (let i = 0; i < tokens.length; i++) {
		const t = tokens[i]!;
		if ((t.word === 'and' || t.word === 'but') && WH_WORDS.has(tokens[i + 1]?.word ?? '') && i > 0) shift++;
		t.clause += shift;
	}
}

const WORD_RE = /[\p{L}\p{N}_$][\p{L}\p{N}_$'’./\\-]*/gu;

/**
 * The stems of every word of a text, for looking terms up across turns. Cheaper than tokenize:
 * earlier turns (long assistant replies included) are read on every call.
 */
export function wordStems(text: string, into: Set<string>): Set<string> {
	for (const s of stemSet(text)) into.add(s);
	return into;
}

/**
 * Earlier turns are re-read on every turn of a conversation, so their stems are memoised by text.
 * The memo is bounded (oldest entries dropped first) and holds derived data only: the result is
 * the same with or without it.
 */
const STEM_MEMO = new Map<string, ReadonlySet<string>>();
const STEM_MEMO_MAX = 256;

/** Empties the stem memo: for the bench's cold runs (`bench:gate --cold`) and tests; no result changes. */
export function clearStemMemo(): void {
	STEM_MEMO.clear();
}

/**
 * The distinct stems of a text (in first-seen order), memoised. A caller that only asks whether a
 * word occurs in some earlier turn queries these sets directly instead of merging them.
 */
export function stemSet(text: string): ReadonlySet<string> {
	const hit = STEM_MEMO.get(text);
	if (hit) return hit;
	const stems = new Set<string>();
	for (const m of text.matchAll(WORD_RE))
		stems.add(
			stem(
				m[0]
					.replace(/[.'’-]+$/u, '')
					.toLowerCase()
					.replace(/’/g, "'"),
			),
		);
	if (STEM_MEMO.size >= STEM_MEMO_MAX) STEM_MEMO.delete(STEM_MEMO.keys().next().value as string);
	STEM_MEMO.set(text, stems);
	return stems;
}

/** The content of a history turn, whichever form it came in. */
export function turnText(turn: string | { content: string }): string {
	return typeof turn === 'string' ? turn : turn.content;
}

/**
 * Light stemming so "goats" meets "goat" and "tests" meets "test"; enough for matching terms
 * across turns, not a linguistic stemmer.
 */
export function stem(word: string): string {
	if (word.length > 4 && word.endsWith('ies')) return word.slice(0, -3) + 'y';
	if (word.length > 3 && word.endsWith('es') && /(?:ch|sh|x|ss)es$/.test(word)) return word.slice(0, -2);
	if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us')) return word.slice(0, -1);
	return word;
}

/**
 * Compiles a phrase list into one regex over a space-joined token string (" a b c "), so each
 * phrase matches only on whole-word boundaries. Built once at module load.
 */
export function phraseRegex(phrases: readonly string[], anchor: 'start' | 'anywhere' | 'end' = 'anywhere'): RegExp {
	const alts = [...phrases]
		.sort((a, b) => b.length - a.length)
		.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
		.join('|');
	if (anchor === 'start') return new RegExp(`^ (${alts}) `);
	if (anchor === 'end') return new RegExp(` (${alts}) $`);
	return new RegExp(` (${alts}) `);
}

/** The space-padded form phraseRegex patterns run against. */
export function joinWords(words: readonly string[]): string {
	return ` ${words.join(' ')} `;
}
