/**
 * Structural follow-up scorer (seed 000, "Decision 2"): does this turn depend on earlier turns?
 * A weighted sum of cheap, named signals over the words of the turn and of the conversation — no
 * model call, microseconds per turn. See README.md in this folder for the algorithm.
 */
import type { Thresholds } from '../thresholds';
import type { FollowupResult, FollowupSignal, HistoryTurn } from '../types';
import { contentStems, freshMentionStems } from './content';
import {
	detectBareDefinite,
	detectContinuation,
	detectDefiniteReference,
	detectElaboration,
	detectElidedHead,
	detectExplicitArgument,
	detectImplicitArgument,
	detectIndefinite,
	detectPronoun,
	detectSubjectQuestion,
	type TurnView,
} from './signals';
import { joinWords, stem, stemSet, tokenize, turnText } from './text';
import { analyzeText, type TurnText } from '../text/turnText';
import { couldStartSocial, freestandingSocial } from '../trigger/socialCues';

type WeightName = keyof Thresholds & `followup_w_${string}`;

/** Evidence for: each detector and the weight that scores it. */
const TURN_DETECTORS: ReadonlyArray<[string, WeightName, (v: TurnView) => string | null]> = [
	['continuation', 'followup_w_continuation', detectContinuation],
	['definite_reference', 'followup_w_definite_reference', detectDefiniteReference],
	['bare_definite', 'followup_w_bare_definite', detectBareDefinite],
	['implicit_argument', 'followup_w_implicit_argument', detectImplicitArgument],
	['elided_head', 'followup_w_elided_head', detectElidedHead],
	['elaboration', 'followup_w_elaboration', detectElaboration],
];

const CODE_BLOCK_RE = /```|\n {4}\S|\n\t\S/;
/** Social formulas are short; longer turns skip the check (the common case). */
const MAX_SOCIAL_TOKENS = 12;

/**
 * Scores how much `utterance` depends on `history`. On the first turn (empty history) nothing can
 * be a follow-up: score 0, no signals. A whole-message greeting or pure acknowledgement scores 0
 * with the single signal `social`. Otherwise the score is the clamped sum of the signals'
 * weights (negative weights are evidence that the turn stands alone), and `is_followup` is
 * score >= `followup_threshold`. `text` is the caller's analyzeText(utterance), when it has one.
 */
export function scoreFollowup(
	utterance: string,
	history: readonly HistoryTurn[],
	t: Thresholds,
	text?: TurnText,
): FollowupResult {
	if (history.length === 0) return { score: 0, is_followup: false, signals: [] };
	const tokens = tokenize(utterance);
	// A greeting or pure acknowledgement ("thanks", "ok, that works") has nothing to resolve, even
	// when it says "that": a veto, recorded as one signal, not a weight to balance against a pronoun.
	const maySocial = tokens.length <= MAX_SOCIAL_TOKENS && couldStartSocial(tokens[0]?.word);
	const social = maySocial ? freestandingSocial(text ?? analyzeText(utterance)) : null;
	if (social) return { score: 0, is_followup: false, signals: [{ name: 'social', weight: -1, match: social }] };
	const words = tokens.map((x) => x.word);
	const view: TurnView = { tokens, words, joined: joinWords(words), content: contentStems(tokens) };
	const signals: FollowupSignal[] = [];
	const add = (name: string, weight: number, match: string | null): void => {
		if (match !== null && weight !== 0) signals.push({ name, weight, match });
	};
	add('active_conversation', t.followup_w_active, 'earlier turns');
	const subject = detectSubjectQuestion(view);
	add('pronoun', t.followup_w_pronoun, detectPronoun(view, subject?.end ?? selfContainedOpening(view)));
	for (const [name, weight, detect] of TURN_DETECTORS) add(name, t[weight], detect(view));
	addShapeSignals(view, t, add);
	addHistorySignals(view, history, t, add);
	add('subject_question', -t.followup_w_subject_question, subject?.match ?? null);
	add('indefinite', -t.followup_w_indefinite, detectIndefinite(view));
	add('explicit_argument', -t.followup_w_explicit_argument, detectExplicitArgument(view));
	add('own_code', -t.followup_w_own_code, CODE_BLOCK_RE.test(utterance) ? 'code block' : null);
	const sum = signals.reduce((s, x) => s + x.weight, 0);
	// Rounded so that 0.3 + 0.2 lands on 0.5 exactly and meets a 0.5 threshold.
	const score = Math.round(Math.min(1, Math.max(0, sum)) * 1e6) / 1e6;
	return { score, is_followup: score >= t.followup_threshold, signals };
}

/**
 * Where pronoun search stops: pronouns after an opening clause that names its own subject ("What
 * is the latest pytest, and does it …", "What is X and why is it …") find their antecedent there.
 */
function selfContainedOpening(v: TurnView): number {
	const end = v.tokens.findIndex((x) => x.clause > 0);
	if (end <= 0) return Infinity;
	const first = v.tokens.slice(0, end);
	const opening: TurnView = {
		tokens: first,
		words: v.words.slice(0, end),
		joined: joinWords(v.words.slice(0, end)),
		content: [],
	};
	const named = first.some((x) => x.name || x.code) || detectIndefinite(opening) || detectExplicitArgument(opening);
	return named && !detectPronoun(opening) ? end : Infinity;
}

type Add = (name: string, weight: number, match: string | null) => void;

/** Shape of the turn itself: very short, or no content word of its own. */
function addShapeSignals(v: TurnView, t: Thresholds, add: Add): void {
	const n = v.words.length;
	add('short', t.followup_w_short, n > 0 && n <= t.followup_short_max_words ? `${n} words` : null);
	const content = v.content.length;
	add('ellipsis', t.followup_w_ellipsis, n > 0 && content === 0 ? 'no content word' : null);
	add(
		'rich_content',
		-t.followup_w_rich_content,
		content >= t.followup_rich_content_words ? `${content} content words` : null,
	);
}

/**
 * Relations to earlier turns. Re-naming a content word of an earlier user turn outside a definite
 * phrase restates the topic in full (evidence the turn stands alone: a dependent turn would say
 * "it" or "the N"); picking up a word of
 * the assistant's last reply continues that reply; a name or identifier no earlier turn used
 * introduces a new subject.
 */
function addHistorySignals(v: TurnView, history: readonly HistoryTurn[], t: Thresholds, add: Add): void {
	const recent = history.slice(-t.followup_history_turns);
	const cap = t.followup_history_chars;
	const last = history[history.length - 1]!;
	// Each earlier turn's memoised stem set, by role; the last reply is kept on its own (for topic
	// continuity). The few words of this turn are looked up in the sets rather than the sets merged
	// into one per decision (hundreds of stems copied to answer a dozen questions).
	const userSets: Array<ReadonlySet<string>> = [];
	const otherSets: Array<ReadonlySet<string>> = [];
	let reply: ReadonlySet<string> | null = null;
	for (const turn of recent) {
		const stems = stemSet(headOf(turnText(turn), cap));
		if (turn.role === 'user') userSets.push(stems);
		else if (turn === last) reply = stems;
		else otherSets.push(stems);
	}
	const inUser = (s: string): boolean => inAny(userSets, s);
	const inAll = (s: string): boolean => inUser(s) || (reply !== null && reply.has(s)) || inAny(otherSets, s);
	const own = v.content;
	const restated = freshMentionStems(v.tokens).filter(inUser);
	add('restated_subject', -t.followup_w_restated_subject, restated.length ? restated.join(' ') : null);
	if (last.role === 'assistant') {
		const picked = own.filter((s) => reply !== null && reply.has(s) && !inUser(s));
		add('topic_continuity', t.followup_w_topic_continuity, picked.length ? picked.join(' ') : null);
	}
	const fresh = v.tokens.filter((x) => (x.name || x.code) && !inAll(stem(x.word))).map((x) => x.word);
	add('new_subject', -t.followup_w_new_subject, fresh.length ? [...new Set(fresh)].join(' ') : null);
}

function inAny(sets: ReadonlyArray<ReadonlySet<string>>, s: string): boolean {
	for (const set of sets) if (set.has(s)) return true;
	return false;
}

/**
 * The first `max` characters of an earlier turn, cut back to a word boundary so no partial word is
 * stemmed. Bounds the scorer's cost on huge pasted replies; a reply's topic is set early.
 */
export function headOf(text: string, max: number): string {
	if (text.length <= max) return text;
	const head = text.slice(0, max);
	const space = head.search(/\s\S*$/);
	return space > 0 ? head.slice(0, space) : head;
}
