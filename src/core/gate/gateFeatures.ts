/**
 * The named features of one turn that the learned gate weighs: the rule stages' own verdicts
 * (trigger, intent, path, follow-up score — strong, readable signals), cue families from the
 * rubric (gateCues.ts), the turn's shape and the history's shape. Every feature is binary and
 * named, so the trace can show which ones moved a decision. Pure; a few dozen regex tests.
 */
import type { Classified } from '../decision/classified';
import type { Draft } from '../decision/resolveDecision';
import { analyzeText, normalizeText, type TurnText } from '../text/turnText';
import { socialKind } from '../trigger/socialCues';
import type { HistoryTurn } from '../types';
import * as C from './gateCues';
import { VAGUE_REQUEST as VAGUE } from '../answerPath/pathCues';
import { followupOnlyFeatures } from './followupFeatures';

/** Characters of an earlier turn the history features read (head or tail). */
const WINDOW = 240;

/** At most this many word features per turn (the first distinct words of 3+ letters). */
const MAX_WORD_FEATURES = 24;
const WORD_RE = /[a-z][a-z0-9_'-]*/g;
/** The request after an opening reaction ("Great. Now run it" → "now run it"). */
const request0 = (core: string) => core.replace(C.REACTION_PREFIX, '');

/** Bucket a count into a few named ranges (features stay binary). */
function bucket(n: number, edges: readonly number[]): string {
	for (const e of edges) if (n <= e) return `<=${e}`;
	return `>${edges[edges.length - 1]}`;
}

function lastOf(history: readonly HistoryTurn[], role: HistoryTurn['role']): HistoryTurn | undefined {
	for (let i = history.length - 1; i >= 0; i--) if (history[i].role === role) return history[i];
	return undefined;
}

// Every earlier user turn is a greeting, thanks or small talk: nothing to lean on (rubric).
function greetingOnly(history: readonly HistoryTurn[]): boolean {
	let users = 0;
	for (const h of history) {
		if (h.role !== 'user') continue;
		users++;
		if (h.content.length > 80 || socialKind(analyzeText(h.content)) === null) return false;
	}
	return users > 0;
}

const CONTENT_WORD = /[a-z_][a-z0-9_]{3,}/g;
const STOP = new Set(
	'this that with what when where which would could should there their about have from they them then than your just like also into does make some more only want need here very will been were over still these those'.split(
		' ',
	),
);
const EMPTY: ReadonlySet<string> = new Set();
function contentSet(text: string): Set<string> {
	const s = new Set<string>();
	// exec loop: no intermediate array of every word (this runs up to four times per decision).
	CONTENT_WORD.lastIndex = 0;
	for (let m = CONTENT_WORD.exec(text); m !== null; m = CONTENT_WORD.exec(text)) if (!STOP.has(m[0])) s.add(m[0]);
	return s;
}

/**
 * Share of `a`'s words found in `b1 ∪ b2`. Two sets rather than the set of `x + ' ' + y`: a content
 * word never spans the joining space, so the union is that set, with no joined string to scan.
 */
function overlap(a: ReadonlySet<string>, b1: ReadonlySet<string>, b2: ReadonlySet<string>): number {
	if (a.size === 0 || (b1.size === 0 && b2.size === 0)) return 0;
	let n = 0;
	for (const w of a) if (b1.has(w) || b2.has(w)) n++;
	return n / a.size;
}

/** What the history features read of the last user turn: only its first WINDOW characters. */
interface UserWindow {
	/** The window, normalised. */
	u: string;
	live: boolean;
	project: boolean;
	general: boolean;
	trace: boolean;
	words: ReadonlySet<string>;
}
/** What the history features read of the last assistant reply: its head and its tail windows. */
interface ReplyWindow {
	head: string;
	tail: string;
	code: boolean;
	offer: boolean;
	headWords: ReadonlySet<string>;
	/** Computed on first need (only short turns read it). */
	tailWords: ReadonlySet<string> | null;
}

// Not memoised by text: in a growing conversation the last user turn and the last reply are new on
// every turn (a bounded memo measured a small loss on bench:gate, 2026-12-03).
function userWindow(content: string): UserWindow {
	const rawHead = content.slice(0, WINDOW);
	const u = normalizeText(rawHead);
	// What the thread is about: a short follow-up inherits it (project → retrieve, general → direct).
	const project =
		C.PROJECT_WORDS.test(u) ||
		C.WE_OUR.test(u) ||
		C.PATHLIKE.test(rawHead) ||
		C.IDENTIFIER.test(rawHead) ||
		C.DEFINITE_OBJECT.test(u);
	return {
		u,
		live: C.ANY_LIVE.test(u),
		project,
		general: C.GENERAL_SHAPE.test(u) || C.GENERAL_MARKER.test(u),
		trace: C.TRACE_LINE.test(rawHead),
		words: contentSet(u),
	};
}

function replyWindow(content: string): ReplyWindow {
	const head = normalizeText(content.slice(0, WINDOW));
	const tail = normalizeText(content.slice(-WINDOW));
	return {
		head,
		tail,
		code: content.includes('```') || /\n {2,}\S/.test(content),
		offer: C.OFFER.test(tail),
		headWords: contentSet(head),
		tailWords: null,
	};
}

/** The active features of a turn (names; each has value 1). `bias` is always first. */
export function gateFeatures(t: TurnText, history: readonly HistoryTurn[], c: Classified, d: Draft): string[] {
	const f: string[] = ['bias'];
	const add = (name: string, on: unknown) => {
		if (on) f.push(name);
	};
	const { text, core, raw } = t;

	// The rule stages' verdicts, as evidence rather than as the decision.
	f.push(
		`rule_trigger:${c.trigger.trigger}`,
		`rule_intent:${c.intent.intent}`,
		`rule_path:${d.path.path}`,
		`rule_mode:${c.behavior.mode}`,
	);
	f.push(`rule_trigger_rule:${c.trigger.rule.split(':')[0]}`, `rule_path_rule:${d.path.rule}`);
	for (const tier of d.tiers) f.push(`rule_tier:${tier}`);
	for (const w of d.write) f.push(`rule_write:${w}`);
	add('rule_followup', c.followup.is_followup);
	f.push(`rule_followup_score:${bucket(Math.round(c.followup.score * 10), [0, 2, 4, 6, 8])}`);
	for (const s of c.followup.signals) f.push(`fu_signal:${s.name}`);
	add('rule_about_user', c.features.about_user);
	add('rule_personal_ref', c.features.personal_reference);
	add('rule_workspace_cue', c.features.workspace);
	add('rule_past_ref', c.features.past_reference);
	add('rule_edit_request', d.path.edit_request);

	// Shape of the turn.
	const words = t.words.length;
	f.push(`words:${bucket(words, [2, 5, 12, 30])}`);
	add('ends_question', t.endsWithQuestion);
	add('has_question_mark', text.includes('?'));
	const wh = C.WH_START.exec(core);
	if (wh) f.push(`wh_start:${wh[1]}`);
	add('aux_start', C.AUX_START.test(core));
	const imperative = C.IMPERATIVE_START.test(core);
	add('imperative_start', imperative);
	const leaning = C.LEANING_START.test(core);
	add('leaning_start', leaning);
	add('ellipsis_tail', C.ELLIPSIS_TAIL.test(text));
	add('bare_answer', C.BARE_ANSWER.test(core));
	add('multiline', raw.includes('\n'));
	add('code_fence', raw.includes('```'));
	const pathLike = C.PATHLIKE.test(raw);
	const identifier = C.IDENTIFIER.test(raw);
	add('path_like', pathLike);
	add('identifier', identifier);
	add('we_our', C.WE_OUR.test(text));
	add('definite_object', C.DEFINITE_OBJECT.test(core));
	add('project_words', C.PROJECT_WORDS.test(text));
	const social = socialKind(t) !== null;
	add('social', social);

	// Words: the request's opening words and its first content words (learned, traced by name).
	const request = request0(core);
	const w = request.match(WORD_RE) ?? [];
	if (w[0]) f.push(`s1:${w[0]}`);
	if (w[1]) f.push(`s2:${w[0]} ${w[1]}`);
	const seen = new Set<string>();
	for (let i = 0; i < w.length && seen.size < MAX_WORD_FEATURES; i++) {
		const word = w[i];
		if (word.length < 3 || seen.has(word)) continue;
		seen.add(word);
		f.push(`w:${word}`);
	}

	// Cue families from the rubric.
	let live = false;
	for (const [name, re] of C.LIVE_CUES) {
		if (!re.test(name === 'live_run' || name === 'live_undo' ? core : text)) continue;
		f.push(name);
		live = true;
	}
	add('meta_reply', C.META_REPLY.test(core));
	add('general_shape', C.GENERAL_SHAPE.test(core));
	add('off_topic', C.OFF_TOPIC.test(text));
	const trace = C.TRACE_LINE.test(raw);
	add('pasted_trace', trace);
	add('project_frame', C.PROJECT_FRAME.test(raw));
	const thirdParty = trace && C.THIRD_PARTY_FRAME.test(raw);
	add('third_party_frame', thirdParty);
	add('doubt', C.DOUBT.test(text));
	add('statement_lead', C.STATEMENT_LEAD.test(core));
	add('note_directive', C.NOTE_DIRECTIVE.test(text));
	add('decision_words', C.DECISION_WORDS.test(text));
	add('instruction_cue', C.INSTRUCTION.test(text));
	add('recall_cue', C.RECALL.test(text));
	add('correction_cue', C.CORRECTION.test(text));
	add('profile_ref', C.PROFILE_REF.test(text));
	add('secret_topic', C.SECRET_TOPIC.test(text));
	add('prod_topic', C.PROD_TOPIC.test(text));
	add('destructive_verb', C.DESTRUCTIVE_VERB.test(text));
	const frustration = C.FRUSTRATION.test(text);
	add('frustration', frustration);
	add('howto', C.HOWTO_DOCS.test(core));
	add('general_marker', C.GENERAL_MARKER.test(text));
	add('last_reply_ref', C.LAST_REPLY.test(text));
	add('deictic_noun', C.DEICTIC_NOUN.test(text));
	add('then_link', C.THEN_LINK.test(text));
	add('thanks_start', C.THANKS_START.test(text));
	add('edit_anywhere', C.EDIT_ANYWHERE.test(text));
	add('meta_any', C.META_ANY.test(text));
	const anaphora = C.ANAPHORA.test(text);
	add('no_anaphora', !anaphora);
	add('long_no_anaphora', !anaphora && words >= 6);
	add('reaction_prefix', request !== core);
	const early = C.earlyAnaphora(request === core ? t.words : (request.match(/[a-z0-9_]+(?:'[a-z]+)?/g) ?? []));
	add('early_anaphora', early);
	const named = C.NAMED_ENTITY.test(raw);
	add('named_entity', named);
	add('named_no_early_anaphora', named && !early);
	const codePath = C.CODE_PATH.test(raw);
	add('code_path', codePath);
	add('failure_with_code_path', trace && codePath && !thirdParty);

	// Shape of the history, and the few conjunctions a linear head cannot form by itself.
	const users = history.reduce((n, h) => n + (h.role === 'user' ? 1 : 0), 0);
	const vague = d.path.rule === 'no_referent' || VAGUE.test(core.replace(/[\s?.!]+$/, ''));
	add('vague_first_turn', vague && users === 0);
	add('this_code_first_turn', users === 0 && C.THIS_CODE.test(text));
	add('vague_with_history', vague && users > 0);
	add('fragment', words > 0 && words <= 3 && !t.endsWithQuestion && !social && !imperative);
	add('frustration_with_history', users > 0 && frustration);
	add('short_question_not_live', words <= 6 && t.endsWithQuestion && !live);
	f.push(`history_users:${bucket(users, [0, 1, 3, 7])}`);
	if (users > 0) {
		add('history_greeting_only', greetingOnly(history));
		f.push(...followupOnlyFeatures(text, raw));
		// Earlier turns are read through short windows: an offer or a question closes a reply, a
		// topic is set early; a long pasted reply must not slow the decision.
		const lastAsst = lastOf(history, 'assistant');
		const reply = lastAsst ? replyWindow(lastAsst.content) : null;
		const asstCode = reply !== null && reply.code;
		const tail = reply ? reply.tail : '';
		if (reply) {
			add('last_asst_code', asstCode);
			add('last_asst_offer', reply.offer);
			add('last_asst_question', tail.endsWith('?'));
		}
		const lastUser = lastOf(history, 'user');
		if (lastUser) {
			const uw = userWindow(lastUser.content);
			add('last_user_live', uw.live);
			const { project, general } = uw;
			add('last_user_project', project);
			add('last_user_general', general);
			const short = words <= 6 || leaning;
			add('short_after_project', short && project && !general);
			// The window holds the reply's words but not the code it read: a question about that code
			// must fetch it again (rubric: the context model).
			add('project_followup_code_not_in_window', short && project && !general && !asstCode && t.endsWithQuestion);
			add('short_after_general', short && general);
			add('last_user_trace', uw.trace);
			const ov = overlap(contentSet(text.slice(0, WINDOW)), uw.words, reply ? reply.headWords : EMPTY);
			f.push(`overlap:${ov === 0 ? '0' : ov < 0.34 ? 'low' : ov < 0.67 ? 'mid' : 'high'}`);
		}
		// Structural follow-up shapes (no word lists of one author's style): a fragment answering the
		// reply's question or offer; a redo verb with no object ("rerun", "retry"); a command or live
		// check that names its own target; a demonstrative noun phrase anywhere in the turn.
		const asked = (reply !== null && reply.offer) || tail.endsWith('?');
		add('fragment_after_question', asked && words <= 3);
		add('redo_no_object', C.REDO_BARE.test(core));
		add('command_self_contained', live && !anaphora && !C.REDO_BARE.test(core));
		add('demonstrative_np', C.DEMONSTRATIVE_NP.test(text));
		// A short turn that picks a word out of the last reply ("tests" after "run the tests or the specs?")
		// leans on it; one whose words the reply never used names something new.
		if (words <= 4 && reply) {
			// The reply's words: its head's and its tail's (no word spans the joining space).
			const hw = reply.headWords;
			const tw = (reply.tailWords ??= contentSet(tail));
			const has = (x: string) => hw.has(x) || tw.has(x);
			let echo = false;
			for (const w of contentSet(text)) if (has(w) || has(w.replace(/s$/, '')) || has(`${w}s`)) echo = true;
			add('short_echoes_reply', echo);
			add('short_new_no_anaphora', !echo && !anaphora && !leaning);
		}
		// A turn that names its own target in full (several content words, a file or an identifier).
		add('restated_topic', words >= 8 && (pathLike || identifier) && !leaning);
	}
	return f;
}
