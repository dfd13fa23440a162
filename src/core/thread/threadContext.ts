/**
 * What the earlier user turns of the conversation were about, for rules that read a turn in the
 * light of its thread: "does it work with Maps?" after a generic JavaScript question is generic
 * too; "why does it fail?" after a test run asks about that run. Computed lazily and at most once
 * per decision, over a bounded number of earlier user turns, so turns that need neither answer
 * pay nothing.
 */
import { firstCue, analyzeText, type TurnText } from '../text/turnText';
import { PERSONAL_REFERENCE, WORKSPACE_CUES, identifierCue } from '../intent/intentCues';
import { GENERAL_MARKER, GENERIC_SHAPE, LIVE_STATE, LOCAL_REFERENCE, PROJECT_REFERENCE, TECH_TERM } from '../answerPath/pathCues';
import type { HistoryTurn } from '../types';

/** Facts about the thread a turn continues. Each is computed on first use. */
export interface ThreadView {
	/** The nearest earlier user turns are generic programming help and none refers to this project. */
	readonly generic: boolean;
	/** The last earlier user turn asked about live state whose failures can be asked about (tests, build, diagnostics). */
	readonly lastUserLive: boolean;
}

/** Live-state cues whose output can show a failure to ask "why?" about (not git or editor actions). */
const FAILURE_STATE = new Set(['diagnostics', 'build_now', 'output_now']);

/** The turn ties itself to this project: a file, an identifier, "our X", "the parser", a personal fact. */
export function refersToProject(t: TurnText): boolean {
	return (
		PROJECT_REFERENCE.test(t.text) ||
		PERSONAL_REFERENCE.test(t.text) ||
		firstCue(WORKSPACE_CUES, t.text) !== null ||
		identifierCue(t.raw) !== null
	);
}

/**
 * Generic programming help on its own: a "how do I / what is" shape naming a technology, or an
 * explicit "in general", with nothing local referred to.
 */
export function isGenericTurn(t: TurnText): boolean {
	if (refersToProject(t)) return false;
	if (GENERAL_MARKER.test(t.text)) return true;
	return GENERIC_SHAPE.test(t.core) && TECH_TERM.test(t.text) && !LOCAL_REFERENCE.test(t.core);
}

/**
 * Walks back over at most `lookback` earlier user turns: a turn that refers to the project or to
 * live state ends the walk (not generic); a generic turn ends it (generic); a neutral follow-up
 * ("does it work with Maps?") is passed over. With no generic anchor in reach the thread is not
 * generic: retrieve on ambiguity.
 */
function genericThread(history: readonly HistoryTurn[], lookback: number): boolean {
	let seen = 0;
	for (let i = history.length - 1; i >= 0 && seen < lookback; i--) {
		if (history[i]!.role !== 'user') continue;
		seen++;
		const t = analyzeText(history[i]!.content);
		if (firstCue(LIVE_STATE, t.text) || refersToProject(t)) return false;
		if (isGenericTurn(t)) return true;
	}
	return false;
}

function lastUserLive(history: readonly HistoryTurn[]): boolean {
	for (let i = history.length - 1; i >= 0; i--) {
		if (history[i]!.role !== 'user') continue;
		const live = firstCue(LIVE_STATE, analyzeText(history[i]!.content).text);
		return live !== null && FAILURE_STATE.has(live.name);
	}
	return false;
}

/** A lazy view of the thread behind the current turn. */
export function threadView(history: readonly HistoryTurn[], lookback: number): ThreadView {
	let generic: boolean | undefined;
	let live: boolean | undefined;
	return {
		get generic() {
			return (generic ??= genericThread(history, lookback));
		},
		get lastUserLive() {
			return (live ??= lastUserLive(history));
		},
	};
}
