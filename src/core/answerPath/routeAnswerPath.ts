/**
 * The answer-path router (seed 001): direct, tool, rag, clarify or refuse. The path is HOW the
 * turn is answered; the tiers searched are decided separately (a tool path may still read the
 * workspace, e.g. for an edit request).
 */
import type { AnswerPath, Intent } from '../types';
import { firstCue, type TurnText } from '../text/turnText';
import type { TriggerResult } from '../trigger/classifyTrigger';
import type { TurnFeatures } from '../intent/classifyIntent';
import { isGenericTurn, refersToProject, type ThreadView } from '../thread/threadContext';
import {
	CREATE_FROM_SCRATCH,
	DIAGNOSIS,
	EDIT_REQUEST,
	LIVE_STATE,
	PROJECT_REFERENCE,
	PROVIDED_CONTEXT,
	SECRET_REQUEST,
	TRANSFORM_REPLY,
	VAGUE_REQUEST,
} from './pathCues';

/** The path with the rule that produced it, for the trace. */
export interface PathResult {
	path: AnswerPath;
	rule: string;
	match: string | null;
	/** The turn asks to change code in the workspace. */
	edit_request: boolean;
	/** A tool path also searches the workspace: the code must be found and read first. */
	reads_workspace: boolean;
}

/** What the router needs beyond the text. */
export interface PathInputs {
	trigger: TriggerResult;
	intent: Intent;
	features: TurnFeatures;
	/** Earlier turns exist, so pronouns may resolve against them. */
	has_history: boolean;
	/** The follow-up scorer says the turn depends on earlier turns. */
	is_followup: boolean;
	/** What the earlier user turns were about (lazy). */
	thread: ThreadView;
	/** The policy wants at least one stored tier for this turn. */
	wants_tiers: boolean;
	clarify_min_chars: number;
}

const NO_SEARCH_INTENTS: ReadonlySet<Intent> = new Set<Intent>(['meta', 'testing', 'privacy']);
/** Intents a generic thread can carry on; profile, code-base and recall questions look things up. */
const THREAD_INTENTS: ReadonlySet<Intent> = new Set<Intent>(['continuation', 'general']);
/** Live cues whose failures the code explains ("the invoiceTotal test is failing"); git and actions do not. */
const FAILURE_LIVE = new Set(['diagnostics', 'build_now', 'output_now']);
const TRAILING_PUNCT = /[\s?.!]+$/;

function path(p: AnswerPath, rule: string, match: string | null, edit = false, reads = false): PathResult {
	return { path: p, rule, match, edit_request: edit, reads_workspace: reads };
}

/** A generic programming question: general phrasing or "in general", nothing local referred to. */
export function isGenericProgramming(t: TurnText, f: TurnFeatures): boolean {
	return !f.workspace && !f.personal_reference && isGenericTurn(t);
}

/** An imperative that changes existing code (not new code from scratch with nothing of ours named). */
export function isEditRequest(t: TurnText): boolean {
	return EDIT_REQUEST.test(t.core) && !(CREATE_FROM_SCRATCH.test(t.core) && !refersToProject(t));
}

/**
 * A follow-up that carries on a generic thread ("does it work with Maps?" after "how do I deep
 * clone an object in JavaScript?"): general knowledge, so nothing is searched. Only when the turn
 * names nothing of the project, reports no problem, and the thread itself is clearly generic.
 */
function continuesGenericThread(t: TurnText, x: PathInputs): boolean {
	if (!x.is_followup || !THREAD_INTENTS.has(x.intent) || x.trigger.rule.startsWith('problem_report')) return false;
	if (x.features.workspace || x.features.personal_reference) return false;
	// The thread test usually fails on its cheap prefilter, so it runs before the project cue (the
	// features already hold the workspace and personal cues; "our X", "the parser"… is left).
	return x.thread.generic && !PROJECT_REFERENCE.test(t.text);
}

/** Live editor state, or a "why does it fail?" about the failure a live turn just showed. */
function livePath(t: TurnText, x: PathInputs, edit: boolean): PathResult | null {
	const live = firstCue(LIVE_STATE, t.text);
	if (live)
		return path(
			'tool',
			live.name,
			live.match,
			edit,
			edit || (x.features.workspace !== null && FAILURE_LIVE.has(live.name)),
		);
	// The failure is in the tool output; explaining it needs the code it points at. The cheap
	// anchored cue runs before the thread is read.
	const why = x.is_followup && !x.features.workspace ? DIAGNOSIS.exec(t.core) : null;
	if (why && x.thread.lastUserLive) return path('tool', 'live_followup', why[0], edit, true);
	return null;
}

/**
 * Routes the turn. Order (seed 001's choose_answer_path, made specific to an editor): refuse a
 * secret request → direct for turns that ask nothing (corrections, instructions, statements,
 * social, meta, testing, privacy) → direct for tasks over provided text → tool for live state →
 * clarify when nothing can be resolved → direct for a generic thread's follow-up → tool for an
 * edit request → direct for generic programming help → rag when the policy wants a stored tier →
 * direct otherwise.
 */
export function routeAnswerPath(t: TurnText, x: PathInputs): PathResult {
	const secret = firstCue(SECRET_REQUEST, t.text);
	if (secret) return path('refuse', secret.name, secret.match);
	if (!x.trigger.retrieves || NO_SEARCH_INTENTS.has(x.intent)) return path('direct', 'no_request', null);

	const provided = firstCue(PROVIDED_CONTEXT, t.text);
	if (provided) return path('direct', provided.name, provided.match);
	const bare = t.core.replace(TRAILING_PUNCT, '');
	if (x.has_history && TRANSFORM_REPLY.test(bare)) return path('direct', 'transform_reply', bare);
	const edit = isEditRequest(t);
	const live = livePath(t, x, edit);
	if (live) return live;

	if (t.text.length < x.clarify_min_chars) return path('clarify', 'too_short', t.text);
	if (!x.has_history && VAGUE_REQUEST.test(bare)) return path('clarify', 'no_referent', bare);
	if (continuesGenericThread(t, x)) return path('direct', 'generic_thread', null);
	if (edit) return path('tool', 'edit_request', null, true, true);
	if (isGenericProgramming(t, x.features)) return path('direct', 'generic_programming', null);
	return x.wants_tiers ? path('rag', 'stored_knowledge', null) : path('direct', 'nothing_to_search', null);
}
