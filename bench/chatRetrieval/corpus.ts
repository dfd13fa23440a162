/**
 * The chat-retrieval benchmark's synthetic corpus (deterministic: seeded, so every run and every
 * engine sees the same chunks and queries). Code chunks over a Zipf vocabulary of made-up words in
 * camelCase and snake_case identifiers, one `def` per chunk (its definition goes in the symbol
 * table); three query mixes: chat questions in words, questions naming a defined identifier, and a
 * pasted Python traceback whose frame points at an indexed file.
 */
import { mulberry32 } from '../../src/core/metrics/seededRandom';

/** Bumped when the generator changes: the store cache (storeCache.ts) is keyed by it. */
export const CORPUS_VERSION = 'c1';

const CONSONANTS = 'bcdfghjklmnprstvwz';
const VOWELS = 'aeiou';
const ENGLISH =
	'how does the where is what happens when why would config cache request handler parse load save retry timeout user session token error value list map file path option flag command'.split(
		' ',
	);

export interface Corpus {
	chunk(i: number): { text: string; path: string; def: string };
	queries: { words: string[]; identifier: string[]; traceback: string[] };
}

export function corpus(queries: number, maxChunks: number): Corpus {
	const r = mulberry32(42);
	const syllable = () => CONSONANTS[Math.floor(r() * CONSONANTS.length)] + VOWELS[Math.floor(r() * VOWELS.length)];
	const words = Array.from(
		{ length: 20000 },
		(_, i) => syllable() + syllable() + (i % 2 ? syllable() : '') + 'x'.repeat(i % 7 === 0 ? 1 : 0),
	);
	const zipf = () => words[Math.min(words.length - 1, Math.floor(Math.exp(r() * Math.log(words.length))) - 1)];
	const ident = (parts = 1 + Math.floor(r() * 3)) => {
		const p = Array.from({ length: parts }, zipf);
		return r() < 0.5 ? p.join('_') : p.map((x, i) => (i ? x[0].toUpperCase() + x.slice(1) : x)).join('');
	};
	const defs: string[] = [];
	const chunk = (i: number) => {
		const rr = mulberry32(1000 + i);
		const pick = () => words[Math.min(words.length - 1, Math.floor(Math.exp(rr() * Math.log(words.length))) - 1)];
		const name = [pick(), pick()].join('_');
		const body = Array.from(
			{ length: 6 + Math.floor(rr() * 10) },
			() =>
				`    ${Array.from({ length: 4 + Math.floor(rr() * 6) }, () => (rr() < 0.5 ? pick() : `${pick()}_${pick()}`)).join(' ')}`,
		);
		return { text: `def ${name}(x):\n${body.join('\n')}`, path: `src/m${i % 500}/f${i}.py`, def: name };
	};
	for (let i = 0; i < 200; i++) defs.push(chunk(Math.floor(r() * maxChunks)).def);
	const eng = () => ENGLISH[Math.floor(r() * ENGLISH.length)];
	return {
		chunk,
		queries: {
			words: Array.from({ length: queries }, () => `${eng()} ${eng()} ${zipf()} ${eng()} ${zipf()}?`),
			identifier: Array.from(
				{ length: queries },
				(_, i) => `how is ${defs[i % defs.length]} implemented and where is ${ident(2)} used?`,
			),
			traceback: Array.from({ length: queries }, (_, i) => {
				const n = Math.floor(r() * maxChunks);
				return `this fails:\nTraceback (most recent call last):\n  File "/home/u/.venv/lib/python3.11/site-packages/src/m${n % 500}/f${n}.py", line 3, in ${defs[i % defs.length]}\n    ${zipf()}(${zipf()})\nValueError: ${zipf()} ${zipf()} is not valid`;
			}),
		},
	};
}
