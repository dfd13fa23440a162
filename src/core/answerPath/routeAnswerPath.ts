/**
 * The answer-path router (seed 001): direct, tool, rag, clarify or refuse. The path is HOW the
 * turn is answered; the tiers searched are decided separately (a tool path may still read the
 * workspace for an edit request).
 */
import type { AnswerPath, Intent } from '../types';
import { firstCue, type TurnText } from '../text/turnText';
import type { TriggerResult } from '../trigger/classifyTrigger';
import type { TurnFeatures } from '../intent/classifyIntent';
import { EDIT_REQUEST, GENERIC_SHAPE, LIVE_STATE, LOCAL_REFERENCE, PROVIDED_CONTEXT, SECRET_REQUEST, TECH_TERM, VAGUE_REQUEST } from './pathCues';

/** The path with the rule that produced it, for the trace. */
export interface PathResult {
	path: AnswerPath;
	rule: string;
	match: string | null;
	/** The turn asks to change code; a tool path then also reads the workspace. */
	edit_request: boolean;
}

/** What the router needs beyond the text. */
export interface PathInputs {
	trigger: TriggerResult;
	intent: Intent;
	features: TurnFeatures;
	/** Earlier turns exist, so pronouns may resolve against them. */
	has_history: boolean;
	/** The policy wants at least one stored tier for this turn. */
	wants_tiers: boolean;
	clarify_min_chars: number;
}

const NO_SEARCH_INTENTS: ReadonlySet<Intent> = new Set<Intent>(['meta', 'testing', 'privacy']);
const TRAILING_PUNCT = /[\s?.!]+$/;

function path(p: AnswerPath, rule: string, match: string | null, edit = false): PathResult {
	return { path: p, rule, match, edit_request: edit };
}

/** A generic programming question: general phrasing, a technology named, nothing local referred to. */
export function isGenericProgramming(t: TurnText, f: TurnFeatures): boolean {
	return GENERIC_SHAPE.test(t.core) && TECH_TERM.test(t.text) && !f.workspace && !f.personal_reference && !LOCAL_REFERENCE.test(t.core);
}

/**
 * Routes the turn. Order (seed 001's choose_answer_path, made specific to an editor): refuse a
 * secret request → direct for turns that ask nothing (corrections, instructions, statements,
 * social, meta, testing, privacy) → direct for tasks over provided text → tool for live state →
 * clarify when nothing can be resolved → direct for generic programming help → rag when the
 * policy wants a stored tier → direct otherwise.
 */
export function routeAnswerPath(t: TurnText, x: PathInputs): PathResult {
	const secret = firstCue(SECRET_REQUEST, t.text);
	if (secret) return path('refuse', secret.name, secret.match);
	if (!x.trigger.retrieves || NO_SEARCH_INTENTS.has(x.intent)) return path('direct', 'no_request', null);

	const provided = firstCue(PROVIDED_CONTEXT, t.text);
	if (provided) return path('direct', provided.name, provided.match);
	const edit = EDIT_REQUEST.test(t.core);
	const live = firstCue(LIVE_STATE, t.text);
	if (live) return path('tool', live.name, live.match, edit);

	if (t.text.length < x.clarify_min_chars) return path('clarify', 'too_short', t.text);
	const bare = t.core.replace(TRAILING_PUNCT, '');
	if (!x.has_history && VAGUE_REQUEST.test(bare)) return path('clarify', 'no_referent', bare);
	if (isGenericProgramming(t, x.features)) return path('direct', 'generic_programming', null);
	return x.wants_tiers ? path('rag', 'stored_knowledge', null, edit) : path('direct', 'nothing_to_search', null);
}
