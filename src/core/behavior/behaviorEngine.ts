/**
 * The behaviour engine (seed 000): how the turn should feel, and whether retrieval is skipped,
 * reduced or boosted. It runs after intent and before the policy's tiers are searched; its volume
 * changes are applied by `modulateVolume`, with every factor taken from the thresholds table —
 * in the seed "reduce" was a flag nothing read, here it changes k and the floors.
 */
import type { Thresholds } from '../thresholds';
import type { BehaviorDecision, BehaviorMode, HistoryTurn, Intent, TurnContext } from '../types';
import { normalizeText, ruleWindow, wordsOf, type TurnText } from '../text/turnText';

/** The behaviour decision with the evidence behind it, for the trace. */
export interface BehaviorResult extends BehaviorDecision {
	rule: string;
	/** The measured value the rule compared (similarity, turns in window, caps ratio), if any. */
	value: number | null;
	threshold: number | null;
}

/** Retrieval volume: how many rows per tier and how similar they must be. */
export interface Volume {
	rag_k: number;
	qa_k: number;
	rag_min_similarity: number;
	qa_min_similarity: number;
}

const FRUSTRATION =
	/\b(?:wrong again|still (?:not|doesn't|does not|isn't|broken|failing|wrong|the same|getting)|not working again|(?:you|it) keeps? (?:\w+ing|making|giving|saying|breaking|forgetting|ignoring|repeating|doing)\b|not what i asked|useless|ridiculous|ugh+|argh+|wtf|ffs|for the (?:last|second|third|fourth|fifth|\d+(?:st|nd|rd|th)) time|i (?:already|just) (?:told|said|asked)|how many times|same (?:error|problem|issue|thing|mistake) again|(?:^|[.!?]\s*)seriously[?!]|come on\b)/;
const CURLY = /[\u2018\u2019\u201A\u201B\u2032]/;
const BANGS = /!{2,}|\?!|!\?/;
const EXPLORATORY =
	/\b(?:what are (?:the|my|some|our) (?:options|alternatives|choices|approaches|trade-?offs)|brainstorm\w*|compare (?:the |different |these |those )?(?:approaches|options|alternatives|libraries|frameworks|designs|solutions|strategies)|compare [\w.#+-]+(?: [\w.#+-]+)? (?:and|vs\.?|versus|with|to) [\w.#+-]+|\bvs\.?(?= )|versus|pros and cons|trade-?offs?|alternatives? (?:to|for)|explore|different (?:ways|approaches|options|designs)|which (?:approach|option|library|framework|design) (?:is|would be|should) |ideas (?:for|on|about)|what (?:else|other \w+) (?:could|can|should|might)|options for|other ways to)\b/;
const SKIP_MODES: Partial<Record<Intent, BehaviorMode>> = {
	testing: 'testing_aware',
	greeting: 'greeting',
	meta: 'meta_aware',
};

function decision(
	mode: BehaviorMode,
	rule: string,
	reason: string,
	value: number | null = null,
	threshold: number | null = null,
): BehaviorResult {
	const skip = mode === 'greeting' || mode === 'testing_aware' || mode === 'meta_aware';
	const reduce = mode === 'repetition_aware' || mode === 'rapid_fire';
	const boost = mode === 'frustration_recovery' || mode === 'exploratory';
	return {
		mode,
		skip_retrieval: skip,
		reduce_retrieval: reduce,
		boost_retrieval: boost,
		reason,
		rule,
		value,
		threshold,
	};
}

/** Share of upper-case letters, and how many letters there are. */
function capsRatio(raw: string): { ratio: number; letters: number } {
	let upper = 0;
	let letters = 0;
	for (let i = 0; i < raw.length; i++) {
		const c = raw.charCodeAt(i);
		if (c >= 65 && c <= 90) {
			upper++;
			letters++;
		} else if (c >= 97 && c <= 122) letters++;
	}
	return { ratio: letters ? upper / letters : 0, letters };
}

/**
 * Words of this turn of which at least one must occur in an earlier turn for the two to reach
 * Jaccard ≥ s: at most (1 − s) / s · |A| of A's words can be missing from B, so checking one more
 * than that (longest first, apostrophe-free so quote styles cannot hide them) is an exact filter.
 * Returns null when the filter cannot be built (then every turn is compared in full).
 */
function probeWords(mine: ReadonlySet<string>, s: number): string[] | null {
	if (s <= 0) return null;
	const need = Math.floor(((1 - s) / s) * mine.size) + 1;
	// Keep the `need` longest apostrophe-free words (need is 1–3 for usual settings): a short
	// insertion into a small array, cheaper than sorting the whole set.
	const picked: string[] = [];
	for (const w of mine) {
		if (w.includes("'")) continue;
		let i = picked.length;
		while (i > 0 && picked[i - 1].length < w.length) i--;
		if (i < need) {
			picked.splice(i, 0, w);
			if (picked.length > need) picked.pop();
		}
	}
	return picked.length >= need ? picked : null;
}

/**
 * Highest Jaccard similarity between this turn's word set and a recent earlier user turn. When
 * `minSimilarity` is given, turns that cannot reach it are skipped before tokenising (this loop
 * is the costliest part of the behaviour engine); their similarity counts as 0.
 */
export function maxRepetition(
	words: readonly string[],
	history: readonly HistoryTurn[],
	lookback: number,
	minSimilarity = 0,
): number {
	if (words.length === 0 || lookback <= 0) return 0;
	const mine = new Set(words);
	const probes = probeWords(mine, minSimilarity);
	let best = 0;
	let seen = 0;
	for (let i = history.length - 1; i >= 0 && seen < lookback; i--) {
		// Hosts pass what they stored; a malformed entry is skipped, not a reason to fail the turn.
		if (history[i].role !== 'user' || typeof history[i].content !== 'string') continue;
		seen++;
		const lower = ruleWindow(history[i].content).toLowerCase();
		if (probes && !probes.some((w) => lower.includes(w))) continue;
		const theirs = new Set(wordsOf(CURLY.test(lower) ? normalizeText(lower) : lower));
		let shared = 0;
		for (const w of theirs) if (mine.has(w)) shared++;
		const union = mine.size + theirs.size - shared;
		if (union > 0 && shared / union > best) best = shared / union;
	}
	return best;
}

/** User turns (this one included) inside the rapid-fire window, or 0 when the host gave no times. */
export function turnsInWindow(context: TurnContext | undefined, windowMs: number): number {
	const times = context?.user_turn_times;
	const now = context?.now;
	if (!times || typeof now !== 'number') return 0;
	let n = 1;
	for (const time of times) if (now - time <= windowMs && now >= time) n++;
	return n;
}

/**
 * Picks the mode. Order: intents that need no search (testing, greeting, meta) → frustration
 * (the user is unhappy: recover before anything else) → repetition → rapid fire → exploratory →
 * standard. Frustration and exploration boost (widen the search); repetition and rapid fire
 * reduce (the conversation window already holds what was found).
 */
export function decideBehavior(
	t: TurnText,
	intent: Intent,
	history: readonly HistoryTurn[],
	context: TurnContext | undefined,
	th: Thresholds,
): BehaviorResult {
	const skipMode = SKIP_MODES[intent];
	if (skipMode) return decision(skipMode, `intent:${intent}`, `${intent} turn: nothing to look up`);

	const caps = capsRatio(t.raw);
	if (caps.letters >= th.frustration_caps_min_letters && caps.ratio >= th.frustration_caps_ratio) {
		return decision(
			'frustration_recovery',
			'shouting',
			'mostly capital letters',
			round(caps.ratio),
			th.frustration_caps_ratio,
		);
	}
	const angry = FRUSTRATION.exec(t.text) ?? BANGS.exec(t.text);
	if (angry) return decision('frustration_recovery', 'frustration_cue', `frustration cue "${angry[0]}"`);

	if (t.words.length >= th.repetition_min_words) {
		const sim = maxRepetition(t.words, history, th.repetition_lookback, th.repetition_similarity);
		if (sim >= th.repetition_similarity) {
			return decision(
				'repetition_aware',
				'repetition',
				'repeats an earlier user turn',
				round(sim),
				th.repetition_similarity,
			);
		}
	}
	const inWindow = turnsInWindow(context, th.rapid_fire_window_ms);
	if (inWindow >= th.rapid_fire_min_turns) {
		return decision(
			'rapid_fire',
			'rapid_fire',
			`${inWindow} user turns within ${th.rapid_fire_window_ms} ms`,
			inWindow,
			th.rapid_fire_min_turns,
		);
	}
	const explore = EXPLORATORY.exec(t.text);
	if (explore) return decision('exploratory', 'exploratory_cue', `exploratory cue "${explore[0].trim()}"`);
	return decision('standard', 'default', 'no behaviour cue');
}

function round(x: number): number {
	return Math.round(x * 10000) / 10000;
}

function scaleK(k: number, factor: number): number {
	return k === 0 ? 0 : Math.max(1, Math.round(k * factor));
}

/**
 * Applies reduce / boost to the policy's volume. Reduce: k × reduce_k_factor (≥ 1), floors +
 * reduce_floor_delta (≤ 1). Boost: k × boost_k_factor, floors − boost_floor_delta (≥ 0). Skip does
 * not touch the numbers — it closes the tiers, which the policy does.
 */
export function modulateVolume(v: Volume, b: BehaviorDecision, th: Thresholds): Volume {
	if (b.reduce_retrieval) {
		return {
			rag_k: scaleK(v.rag_k, th.reduce_k_factor),
			qa_k: scaleK(v.qa_k, th.reduce_k_factor),
			rag_min_similarity: round(Math.min(1, v.rag_min_similarity + th.reduce_floor_delta)),
			qa_min_similarity: round(Math.min(1, v.qa_min_similarity + th.reduce_floor_delta)),
		};
	}
	if (b.boost_retrieval) {
		return {
			rag_k: scaleK(v.rag_k, th.boost_k_factor),
			qa_k: scaleK(v.qa_k, th.boost_k_factor),
			rag_min_similarity: round(Math.max(0, v.rag_min_similarity - th.boost_floor_delta)),
			qa_min_similarity: round(Math.max(0, v.qa_min_similarity - th.boost_floor_delta)),
		};
	}
	return v;
}
