/**
 * One normalised view of a turn's text, computed once per decision and shared by every rule
 * module, so each regex runs on the same lower-cased, quote-normalised string.
 */

/** The normalised forms of one utterance that the rule modules match against. */
export interface TurnText {
	/** The utterance as typed (for case-sensitive cues: identifiers, shouting). */
	raw: string;
	/** Lower case, curly quotes straightened, whitespace collapsed, trimmed. */
	text: string;
	/**
	 * `text` with leading social phrases ("hi,", "ok so", "thanks!") removed, so start-anchored
	 * cues ("refactor …", "how do I …") still see the start of the actual request.
	 */
	core: string;
	/** Word tokens of `text` (letters, digits, `_`, inner apostrophes). */
	words: string[];
	/** The turn ends with a question mark (ignoring trailing spaces, emoji and closing quotes). */
	endsWithQuestion: boolean;
}

const CURLY_SINGLE = /[\u2018\u2019\u201A\u201B\u2032]/g;
const CURLY_DOUBLE = /[\u201C\u201D\u201E\u201F\u2033]/g;
const SPACES = /\s+/g;
const WORD = /[a-z0-9_]+(?:'[a-z]+)?/g;
// Trailing decoration that should not hide a final "?": spaces, quotes, brackets, emoji.
const TRAILING_DECOR = /[\s"')\]}\u{1F300}-\u{1FAFF}\u2600-\u27BF]+$/u;
// A leading social phrase followed by punctuation or "so"/"and": "hi, ", "ok so ", "thanks! ".
const LEADING_SOCIAL =
	/^(?:hi|hello|hey|hiya|yo|ok|okay|alright|right|so|well|thanks|thank you|cool|great|nice|sure|um+|uh+|hmm+|and|also|now|then|please|pls)(?:\s+there)?\s*(?:[,.!:;-]+\s*|\s+(?=so\b|and\b|now\b|then\b|please\b|pls\b)|\s+)/;

/** Lower-cases and normalises quotes and whitespace; the base of every other form. */
export function normalizeText(raw: string): string {
	return raw.replace(CURLY_SINGLE, "'").replace(CURLY_DOUBLE, '"').replace(SPACES, ' ').trim().toLowerCase();
}

/** Word tokens of already-normalised text. */
export function wordsOf(text: string): string[] {
	return text.match(WORD) ?? [];
}

function stripLeadingSocial(text: string): string {
	let core = text;
	// Bounded: at most a few stacked fillers ("ok so, thanks, now …").
	for (let i = 0; i < 4; i++) {
		const m = LEADING_SOCIAL.exec(core);
		if (!m || m[0].length >= core.length) break;
		core = core.slice(m[0].length);
	}
	return core;
}

// Rules read at most this much of a turn: its head (where requests start) and its tail (where
// "…, remember?" and the question mark are). Bounds every regex on pasted logs and files. 300/150
// (was 1,500/500): the learned gate's cross-validation on the corpus is unchanged, and the
// decision's cost on a pasted trace halves. The refusal rules read more (`fullForms`).
const HEAD_CHARS = 300;
const TAIL_CHARS = 150;

/** The part of a long turn the rules read: head + tail, joined by an ellipsis line. */
export function ruleWindow(raw: string): string {
	return raw.length <= HEAD_CHARS + TAIL_CHARS ? raw : `${raw.slice(0, HEAD_CHARS)}\n…\n${raw.slice(-TAIL_CHARS)}`;
}

/** The text forms most rules need, without the word list: for reading earlier turns cheaply. */
export type TextForms = Pick<TurnText, 'raw' | 'text' | 'core'>;

/** `raw`, `text` and `core` of an utterance (its rule window), as analyzeText would give them. */
export function textForms(fullRaw: string): TextForms {
	const raw = ruleWindow(fullRaw);
	const text = normalizeText(raw);
	return { raw, text, core: stripLeadingSocial(text) };
}

/**
 * The forms of the first `maxChars` of an utterance, for the refusal rules: a request to paste a
 * key buried in the middle of a long message must still be seen, so they read more than the rule
 * window (their prefilters keep that cheap).
 */
export function fullForms(fullRaw: string, maxChars: number): TextForms {
	const raw = fullRaw.length > maxChars ? fullRaw.slice(0, maxChars) : fullRaw;
	const text = normalizeText(raw);
	return { raw, text, core: stripLeadingSocial(text) };
}

/** Builds the shared text view of one utterance (of its first 1,500 and last 500 characters). */
export function analyzeText(fullRaw: string): TurnText {
	const { raw, text, core } = textForms(fullRaw);
	return {
		raw,
		text,
		core,
		words: wordsOf(text),
		endsWithQuestion: text.replace(TRAILING_DECOR, '').endsWith('?'),
	};
}

/** A named regular expression; the name is what the trace reports. */
export interface Cue {
	name: string;
	re: RegExp;
}

/**
 * A table of cues plus one combined expression of all of them. Most turns match no cue of a given
 * table, so one scan with the combined expression answers the common case; only on a hit are the
 * cues tried one by one, in table order (the order decides which name the trace reports).
 */
export interface CueTable extends ReadonlyArray<Cue> {
	readonly any: RegExp;
}

/** Builds a cue table at module load (flags are not supported: cues match normalised text). */
export function cueTable(cues: readonly Cue[]): CueTable {
	const any = new RegExp(cues.map((c) => `(?:${c.re.source})`).join('|'));
	return Object.freeze(Object.assign([...cues], { any }));
}

/** The first cue, in table order, that matches, with the matched words; or null. */
export function firstCue(cues: CueTable, text: string): { name: string; match: string } | null {
	if (!cues.any.test(text)) return null;
	for (const cue of cues) {
		const m = cue.re.exec(text);
		if (m) return { name: cue.name, match: m[0].trim() };
	}
	return null;
}
