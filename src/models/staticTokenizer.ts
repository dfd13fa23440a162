/**
 * The tokeniser of the built-in static embedder; must match training/tokenizer.py exactly (a unit
 * test compares ids with a fixture the Python side wrote). Words: one ASCII regex, lower-cased; a
 * known word is its vocabulary id, any other word is the hashed character trigrams of "<word>"
 * (FNV-1a 32-bit mod `buckets`, after the vocabulary), each weighted 1/n so an unknown word weighs
 * as much as a known one. ASCII only on purpose: JS and Python disagree on Unicode case and `\w`.
 */

const WORD = /[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+/g;

/** What the tokeniser needs from the model's config. */
export interface StaticTokenizerSpec {
	vocab: ReadonlyMap<string, number>;
	buckets: number;
	ngram: number;
	maxWordChars: number;
}

/** Token ids and their pooling weights for one text. */
export interface EncodedText {
	ids: number[];
	weights: number[];
}

/** Lower-cased words of a text, in order (same as `words()` in training/tokenizer.py). */
export function staticWords(text: string): string[] {
	return (text.match(WORD) ?? []).map((w) => w.toLowerCase());
}

/** FNV-1a 32-bit over char codes (ASCII here). */
export function fnv1a32(s: string): number {
	let h = 0x811c9dc5;
	for (let i = 0; i < s.length; i++) {
		h ^= s.charCodeAt(i);
		h = Math.imul(h, 0x01000193);
	}
	return h >>> 0;
}

/** Bucket indices of the character n-grams of "<word>". */
export function ngramBuckets(
	word: string,
	spec: Pick<StaticTokenizerSpec, 'buckets' | 'ngram' | 'maxWordChars'>,
): number[] {
	const w = `<${word.slice(0, spec.maxWordChars)}>`;
	const out: number[] = [];
	for (let i = 0; i + spec.ngram <= w.length; i++) out.push(fnv1a32(w.slice(i, i + spec.ngram)) % spec.buckets);
	return out;
}

/** Ids and weights of the first `maxWords` words of `text`. */
export function encodeStatic(text: string, spec: StaticTokenizerSpec, maxWords: number): EncodedText {
	const ids: number[] = [];
	const weights: number[] = [];
	const vocabSize = spec.vocab.size;
	let n = 0;
	for (const m of text.matchAll(WORD)) {
		if (n++ >= maxWords) break;
		const w = m[0].toLowerCase();
		const id = spec.vocab.get(w);
		if (id !== undefined) {
			ids.push(id);
			weights.push(1);
		} else if (spec.buckets > 0) {
			const grams = ngramBuckets(w, spec);
			for (const g of grams) {
				ids.push(vocabSize + g);
				weights.push(1 / grams.length);
			}
		}
	}
	return { ids, weights };
}
