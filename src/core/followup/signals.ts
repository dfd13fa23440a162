/**
 * Signal detectors: each looks at one structural property of the turn and returns the words that
 * triggered it (for the trace), or null. Weights are applied by the scorer, not here.
 */
import {
	ANAPHORIC_PRONOUNS,
	ARGUMENT_PREPOSITIONS,
	ARTIFACT_NOUNS,
	BARE_REACTIONS,
	CLOSED_CLASS,
	CONTINUATION_ANYWHERE,
	CONTINUATION_STARTERS,
	DEFINITE_DETERMINERS,
	DEICTIC_NON_ANAPHORA,
	DISCOURSE_REFERENCES,
	ELABORATION_PHRASES,
	ELIDED_HEAD_ADJECTIVES,
	INDEFINITE_QUANTIFIERS,
	EXPLETIVE_PREDICATES,
	EXPLETIVE_VERBS,
	ONE_PRONOUN_BEFORE,
	RELATIONAL_NOUNS,
	SENTENCE_FINAL_ADDITIVES,
	SUBJECT_OPENERS,
	THAT_DEMONSTRATIVE_BEFORE,
	UNIQUE_NOUNS,
} from './lexicon';
import { isFunctionWord } from './content';
import { phraseRegex, type Token } from './text';

const STARTER_RE = phraseRegex(CONTINUATION_STARTERS, 'start');
const CONTINUATION_ANYWHERE_RE = phraseRegex(CONTINUATION_ANYWHERE);
const DISCOURSE_RE = phraseRegex(DISCOURSE_REFERENCES);
const ELABORATION_RE = phraseRegex(ELABORATION_PHRASES);
const OPENER_RE = phraseRegex(SUBJECT_OPENERS, 'start');
const BE_VERBS = new Set(['is', 'are', 'was', 'were', "'s", 'be', 'been']);
/** More content words than this and an "explain…" turn brings its own topic. */
const MAX_ELABORATION_CONTENT = 2;
const QUANTIFIER_SUBJECTS = new Set(['you', 'i', 'we', 'they', 'there', 'it', '']);
const SUPERLATIVE_RE = /^[a-z]{3,}est$/;
/** Quantifier phrases that, followed by a function word ("how many can…"), have lost their noun. */
const QUANTIFIER_PHRASES = new Set([
	'how many',
	'how much',
	'what kind',
	'what type',
	'what sort',
	'which kind',
	'which type',
]);

/** The parsed turn every detector reads. */
export interface TurnView {
	tokens: Token[];
	words: string[];
	/** " w1 w2 … " for phrase regexes. */
	joined: string;
	/** Stems of the turn's content words (see contentStems). */
	content: string[];
}

function sameSentence(t: Token[], i: number, j: number): boolean {
	return j >= 0 && j < t.length && t[i]!.sentence === t[j]!.sentence;
}

/** "it" in "is it possible to", "it's worth", "does it take to" points forward, not back. */
function isExpletiveIt(w: string[], i: number): boolean {
	const next = w.slice(i + 1, i + 4);
	if (EXPLETIVE_VERBS.has(next[0] ?? '') && next.includes('to')) return true;
	// "it is/it's/is it/would it be" + a predicate such as possible, worth, hard.
	const afterBe = w[i] === "it's" ? 1 : BE_VERBS.has(next[0] ?? '') ? 2 : BE_VERBS.has(w[i - 1] ?? '') ? 1 : 0;
	const predicate = afterBe && w[i + afterBe] === 'be' ? w[i + afterBe + 1] : w[i + afterBe];
	return afterBe > 0 && EXPLETIVE_PREDICATES.has(predicate ?? '');
}

function isAnaphoricThat(t: Token[], w: string[], i: number): boolean {
	if (DEICTIC_NON_ANAPHORA.has(w[i + 1] ?? '')) return false;
	// Sentence-initial or sentence-final "that" is a demonstrative; mid-sentence only after a
	// preposition, auxiliary or wh-word (otherwise it is a relative pronoun or complementizer).
	if (!sameSentence(t, i, i - 1) || !sameSentence(t, i, i + 1)) return true;
	return THAT_DEMONSTRATIVE_BEFORE.has(w[i - 1]!);
}

/** "feijoada and its significance": the possessive's antecedent is the conjunct just before. */
function coordinatedPossessive(t: Token[], i: number): boolean {
	const w = t[i]!.word;
	if (w !== 'its' && w !== 'their') return false;
	const and = t[i - 1];
	const noun = t[i - 2];
	return (
		and?.word === 'and' && !!noun && sameSentence(t, i, i - 2) && (noun.name || noun.code || !isFunctionWord(noun.word))
	);
}

/** Locative "there" (held there), not existential "there is/are". */
function isAnaphoricThere(w: string[], i: number): boolean {
	return !BE_VERBS.has(w[i + 1] ?? '') && !BE_VERBS.has(w[i - 1] ?? '') && w[i + 1] !== "'s";
}

/**
 * Pronouns and demonstratives that need an antecedent from an earlier turn. Only tokens before
 * `until` are searched: the scorer sets it to the end of an opening clause that names its own
 * subject, which is then the antecedent of later pronouns ("What is X, and why is it used?").
 */
export function detectPronoun(v: TurnView, until = Infinity): string | null {
	const { tokens: t, words: w } = v;
	const hits: string[] = [];
	for (let i = 0; i < Math.min(w.length, until); i++) {
		const x = w[i]!;
		let hit = false;
		if (x === 'it' || x === "it's") hit = !isExpletiveIt(w, i);
		else if (x === 'this' || x === 'these' || x === 'those') hit = !DEICTIC_NON_ANAPHORA.has(w[i + 1] ?? '');
		else if (x === 'that') hit = isAnaphoricThat(t, w, i);
		else if (x === 'there') hit = isAnaphoricThere(w, i);
		else if (x === 'one' || x === 'ones') hit = ONE_PRONOUN_BEFORE.has(w[i - 1] ?? '') && w[i + 1] !== 'of';
		else hit = ANAPHORIC_PRONOUNS.has(x) && !coordinatedPossessive(t, i);
		if (hit) hits.push(x);
	}
	return hits.length ? [...new Set(hits)].join(' ') : null;
}

/** Discourse connectives that open the turn or add to what came before ("and…", "what about…", "…too?"). */
export function detectContinuation(v: TurnView): string | null {
	const start = STARTER_RE.exec(v.joined);
	if (start) return start[1]!;
	const any = CONTINUATION_ANYWHERE_RE.exec(v.joined);
	if (any) return any[1]!;
	const t = v.tokens;
	for (let i = 0; i < t.length; i++) {
		if (SENTENCE_FINAL_ADDITIVES.has(t[i]!.word) && !sameSentence(t, i, i + 1) && i > 0) return t[i]!.word;
	}
	return null;
}

/**
 * Definite references to an artifact of the conversation: "the function", "that error",
 * "your example", "you said", "above". An artifact the turn names itself ("the `parse` function",
 * "the test for parseConfig") is not a reference back.
 */
export function detectDefiniteReference(v: TurnView): string | null {
	const d = DISCOURSE_RE.exec(v.joined);
	if (d) return d[1]!;
	const t = v.tokens;
	for (let i = 0; i < t.length; i++) {
		if (!DEFINITE_DETERMINERS.has(t[i]!.word)) continue;
		for (let j = i + 1; j <= i + 3 && sameSentence(t, i, j); j++) {
			const tok = t[j]!;
			if (ARTIFACT_NOUNS.has(tok.word)) {
				if (!namesItself(t, i, j)) return `${t[i]!.word} ${tok.word}`;
				break;
			}
			// A content modifier ("the event loop", "the login function") names the artifact itself.
			if (tok.code || tok.name || CLOSED_CLASS.has(tok.word) || !isFunctionWord(tok.word)) break;
		}
	}
	return null;
}

/**
 * True when a name or identifier sits inside the phrase or just after its head ("the test for
 * parseConfig"), or an of/for phrase follows with a content word ("the version of pytest").
 */
function namesItself(t: Token[], from: number, head: number): boolean {
	for (let k = from + 1; k <= head + 3 && sameSentence(t, from, k); k++) {
		if (t[k]!.code || t[k]!.name) return true;
	}
	const after = t[head + 2];
	return (
		ARGUMENT_PREPOSITIONS.has(t[head + 1]?.word ?? '') &&
		!!after &&
		sameSentence(t, head, head + 2) &&
		!isFunctionWord(after.word) &&
		after.word !== 'the'
	);
}

/**
 * A definite noun phrase with no complement ("the main themes", "the system", "the largest"): its
 * referent is fixed by earlier context. Names, world-unique nouns and phrases followed by
 * of/for/between are self-anchored.
 */
export function detectBareDefinite(v: TurnView): string | null {
	const t = v.tokens;
	for (let i = 0; i < t.length; i++) {
		if (t[i]!.word !== 'the') continue;
		let j = i + 1;
		while (j < t.length && sameSentence(t, i, j) && !CLOSED_CLASS.has(t[j]!.word)) j++;
		const run = t.slice(i + 1, j);
		if (run.length === 0 || run.some((x) => x.name || x.code)) continue;
		const head = run[run.length - 1]!.word;
		if (UNIQUE_NOUNS.has(head) || ARTIFACT_NOUNS.has(head)) continue;
		const next = sameSentence(t, i, j) ? t[j]!.word : '';
		if (ARGUMENT_PREPOSITIONS.has(next)) continue;
		return `the ${run.map((x) => x.word).join(' ')}`;
	}
	return null;
}

/** A relational noun whose argument is left to the conversation ("what are the symptoms?", "any downsides?"). */
export function detectImplicitArgument(v: TurnView): string | null {
	const t = v.tokens;
	for (let i = 0; i < t.length; i++) {
		const x = t[i]!;
		if (!RELATIONAL_NOUNS.has(x.word)) continue;
		const prev = sameSentence(t, i, i - 1) ? t[i - 1]! : undefined;
		const next = sameSentence(t, i, i + 1) ? t[i + 1]! : undefined;
		// A modifier before ("Python's performance", "React versions") or a compound after
		// ("type annotation") supplies the argument.
		if (prev && (prev.name || prev.code || !isFunctionWord(prev.word))) continue;
		if (next && (next.name || next.code || !isFunctionWord(next.word))) continue;
		if (next && ARGUMENT_PREPOSITIONS.has(next.word)) continue;
		return x.word;
	}
	return null;
}

/**
 * A relational noun with its argument spelled out ("the history of X", "types of Y", "the
 * difference between A and B"): the turn names what it is about. Evidence against.
 */
export function detectExplicitArgument(v: TurnView): string | null {
	const t = v.tokens;
	for (let i = 0; i + 2 < t.length; i++) {
		if (!RELATIONAL_NOUNS.has(t[i]!.word) || !ARGUMENT_PREPOSITIONS.has(t[i + 1]!.word)) continue;
		// The argument is the next content word; a pronoun or "the N" there points back instead.
		let j = i + 2;
		while (j < t.length && (t[j]!.word === 'a' || t[j]!.word === 'an')) j++;
		const arg = t[j];
		if (!arg || !sameSentence(t, i, j) || arg.word === 'the' || ANAPHORIC_PRONOUNS.has(arg.word)) continue;
		if (arg.name || arg.code || !isFunctionWord(arg.word)) return `${t[i]!.word} ${t[i + 1]!.word} ${arg.word}`;
	}
	return null;
}

/** After "how many": end of sentence, or an auxiliary + subject pronoun ("how many can you …"). */
function countsNothing(next: string, after: string): boolean {
	return next === '' || (CLOSED_CLASS.has(next) && next !== 'of' && QUANTIFIER_SUBJECTS.has(after));
}

/**
 * A superlative, ordinal or quantifier standing in for a noun the conversation supplies: "the
 * largest ever", "the first", "how many can you have", "which is younger", "what kind should I get".
 */
export function detectElidedHead(v: TurnView): string | null {
	const t = v.tokens;
	const nextWord = (i: number): string => (sameSentence(t, i, i + 1) ? t[i + 1]!.word : '');
	const bare = (w: string): boolean => w === '' || (CLOSED_CLASS.has(w) && w !== 'of');
	for (let i = 0; i + 1 < t.length; i++) {
		const w = t[i]!.word;
		if (w === 'the') {
			let j = i + 1;
			if (t[j]!.word === 'most' || t[j]!.word === 'least') j++;
			if (j >= t.length || !sameSentence(t, i, j)) continue;
			const adj = t[j]!.word;
			const superlative = ELIDED_HEAD_ADJECTIVES.has(adj) || SUPERLATIVE_RE.test(adj) || j > i + 1;
			if (superlative && bare(nextWord(j)))
				return t
					.slice(i, j + 1)
					.map((x) => x.word)
					.join(' ');
		} else if (QUANTIFIER_PHRASES.has(`${w} ${nextWord(i)}`) && countsNothing(nextWord(i + 1), nextWord(i + 2))) {
			return `${w} ${nextWord(i)}`;
		} else if (w === 'which' && BE_VERBS.has(nextWord(i)) && !v.words.slice(i).includes('or')) {
			return `which ${nextWord(i)}`;
		}
	}
	return null;
}

/**
 * An indefinite noun phrase ("a wheel", "an async function") introduces a new referent: the
 * turn brings its own subject instead of pointing back. Evidence against.
 */
export function detectIndefinite(v: TurnView): string | null {
	const t = v.tokens;
	for (let i = 0; i + 1 < t.length; i++) {
		const w = t[i]!.word;
		if ((w !== 'a' && w !== 'an') || !sameSentence(t, i, i + 1)) continue;
		const next = t[i + 1]!;
		if (INDEFINITE_QUANTIFIERS.has(next.word) || (CLOSED_CLASS.has(next.word) && !next.name)) continue;
		return `${w} ${next.word}`;
	}
	return null;
}

/** A request to say more about what was just said ("explain", "example", "tell me more", a bare "why?"). */
export function detectElaboration(v: TurnView): string | null {
	if (v.words.length === 1 && BARE_REACTIONS.has(v.words[0]!)) return v.words[0]!;
	const m = ELABORATION_RE.exec(v.joined);
	// "Explain how Python's garbage collector handles cycles" opens a topic of its own.
	return m && v.content.length <= MAX_ELABORATION_CONTENT ? m[1]! : null;
}

/** A subject question and the index of the first token after its subject clause. */
export interface SubjectQuestion {
	match: string;
	end: number;
}

/**
 * "What is X?", "Tell me about X", "Describe X" where X is a complete subject (indefinite, bare or
 * named, no pronoun): the turn states its whole topic itself. X ends at the end of its clause.
 */
export function detectSubjectQuestion(v: TurnView): SubjectQuestion | null {
	const m = OPENER_RE.exec(v.joined);
	if (!m) return null;
	const t = v.tokens;
	const start = m[1]!.split(' ').length;
	let end = start;
	while (end < t.length && t[end]!.clause === t[start - 1]!.clause) end++;
	const rest = t.slice(start, end);
	if (rest.length === 0 || rest.length > 5) return null;
	const first = rest[0]!.word;
	if (first === 'the' || first === 'your' || ANAPHORIC_PRONOUNS.has(first)) return null;
	// Every word must be content, an article or "and": a verb or preposition means the
	// object is not the whole subject ("what are pygmies used for").
	const body = rest.filter((x) => x.word !== 'a' && x.word !== 'an' && x.word !== 'and');
	if (body.some((x) => !x.name && !x.code && isFunctionWord(x.word))) return null;
	const named = body.some((x) => x.name || x.code);
	if (!named && /^(tell|describe)/.test(m[1]!) && body.length < 2) return null;
	return { match: `${m[1]} ${rest.map((x) => x.word).join(' ')}`, end };
}
