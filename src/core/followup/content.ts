/** What a turn is about: its content words, and which of them earlier turns already used. */
import { CLOSED_CLASS, DEFINITE_DETERMINERS, LIGHT_WORDS, RELATIONAL_NOUNS } from './lexicon';
import { stem, type Token } from './text';

/** Closed-class words, light verbs, generic adjectives and relational nouns carry no topic of their own. */
export function isFunctionWord(word: string): boolean {
	return CLOSED_CLASS.has(word) || LIGHT_WORDS.has(word) || RELATIONAL_NOUNS.has(word);
}

/** The stems of a turn's content words (names and identifiers included), in order, without repeats. */
export function contentStems(tokens: readonly Token[]): string[] {
	const out = new Set<string>();
	for (const t of tokens) {
		if (t.code || t.name || !isFunctionWord(t.word)) out.add(stem(t.word));
	}
	return [...out];
}

/**
 * The stems of content words that are not inside a definite noun phrase. A repeated noun under
 * "the" ("the museum", "the College") is an anaphor for the earlier mention; a bare or indefinite
 * repetition ("what causes throat cancer?") mentions the thing afresh.
 */
export function freshMentionStems(tokens: readonly Token[]): string[] {
	const out = new Set<string>();
	let definite = false;
	for (let i = 0; i < tokens.length; i++) {
		const t = tokens[i]!;
		const prev = tokens[i - 1];
		if (!prev || prev.clause !== t.clause || CLOSED_CLASS.has(prev.word))
			definite = !!prev && DEFINITE_DETERMINERS.has(prev.word) && prev.clause === t.clause;
		if (!definite && (t.code || t.name || !isFunctionWord(t.word))) out.add(stem(t.word));
	}
	return [...out];
}
