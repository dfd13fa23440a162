/**
 * Follow-up features that only the follow-up head weighs (prefix `fuonly_`, see training/fitGate.ts):
 * whether a pronoun's antecedent sits earlier in the same turn ("the login page is blank, can you
 * fix it": "it" is the page, not an earlier turn) or nowhere in it ("why does it hang?"). Pure.
 */

const PRONOUN = /\b(?:it|its|that|this|those|these|them|they)\b/;
// A noun phrase: a determiner and a word, a file, an identifier or a backticked name.
const NOUN_PHRASE =
	/\b(?:the|a|an|my|our|your|this|that|these|those)\s+[a-z_][\w.-]{2,}|[\w-]+\.[a-z]{1,5}\b|`[^`]+`|\b[a-z]+_[a-z_]+\b|\b[a-z]+[A-Z]\w*/;

/** The `fuonly_` features of a turn: its lower-cased text and its raw text (identifiers keep their case). */
export function followupOnlyFeatures(text: string, raw: string): string[] {
	const p = PRONOUN.exec(text);
	if (!p) return [];
	// Read up to the pronoun's offset (the lower-cased text is no longer than the raw one's prefix).
	const before = raw.slice(0, Math.min(raw.length, p.index));
	const own = NOUN_PHRASE.test(before) || NOUN_PHRASE.test(before.toLowerCase());
	return [own ? 'fuonly_pronoun_after_own_np' : 'fuonly_pronoun_no_own_np'];
}
