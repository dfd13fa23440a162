/**
 * What the earlier user turns of the conversation were about, for rules that read a turn in the
 * light of its thread: "does it work with Maps?" after a generic JavaScript question is generic
 * too; "why does it fail?" after a test run asks about that run. Computed lazily and at most once
 * per decision, over a bounded number of earlier user turns, so turns that need neither answer
 * pay nothing.
 */
import { firstCue, ruleWindow, textForms, type TextForms } from '../text/turnText';
import { PERSONAL_REFERENCE, WORKSPACE_CUES, identifierCue } from '../intent/intentCues';
import {
	GENERAL_MARKER,
	GENERIC_SHAPE,
	LIVE_STATE,
	LOCAL_REFERENCE,
	PROJECT_REFERENCE,
	TECH_TERM,
} from '../answerPath/pathCues';
import type { HistoryTurn } from '../types';

/** Facts about the thread a turn continues. Each is computed on first use. */
export interface ThreadView {
	/** The nearest earlier user turns are generic programming help and none refers to this project. */
	readonly generic: boolean;
	/** The last earlier user turn asked about live state whose failures can be asked about (tests, build, diagnostics). */
	readonly lastUserLive: boolean;
}

/** Case-insensitive prefilter for genericShape: a generic question names a technology or says "in general". */
const GENERIC_HINT = new RegExp(`${TECH_TERM.source}|${GENERAL_MARKER.source}`, 'i');

/** Live-state cues whose output can show a failure to ask "why?" about (not git or editor actions). */
const FAILURE_STATE = new Set(['diagnostics', 'build_now', 'output_now']);

/** The turn ties itself to this project: a file, an identifier, "our X", "the parser", a personal fact. */
export function refersToProject(t: TextForms): boolean {
	return (
		PROJECT_REFERENCE.test(t.text) ||
		PERSONAL_REFERENCE.test(t.text) ||
		firstCue(WORKSPACE_CUES, t.text) !== null ||
		identifierCue(t.raw) !== null
	);
}

/** Generic phrasing: a "how do I / what is" shape naming a technology, or an explicit "in general". */
function genericShape(t: TextForms): boolean {
	return (
		GENERAL_MARKER.test(t.text) ||
		(GENERIC_SHAPE.test(t.core) && TECH_TERM.test(t.text) && !LOCAL_REFERENCE.test(t.core))
	);
}

/** Generic programming help on its own: generic phrasing with nothing of the project referred to. */
export function isGenericTurn(t: TextForms): boolean {
	return genericShape(t) && !refersToProject(t);
}

/**
 * The thread is generic when the nearest generic question among the last `lookback` user turns
 * is itself free of project references and no user turn since then refers to the project or to
 * live state; neutral follow-ups in between ("does it work with Maps?") are passed over. With no
 * generic anchor in reach the thread is not generic: retrieve on ambiguity. The cheap shape test
 * runs first, so a thread without any generic question (the common case) costs a few regex tests.
 */
function genericThread(history: readonly HistoryTurn[], lookback: number): boolean {
	const since: string[] = [];
	for (let i = history.length - 1; i >= 0 && since.length < lookback; i--) {
		if (history[i]!.role !== 'user') continue;
		const raw = ruleWindow(history[i]!.content);
		// Most earlier turns name no technology at all: one regex rules them out before any normalising.
		const t = GENERIC_HINT.test(raw) ? textForms(raw) : null;
		if (t && genericShape(t)) return !refersToProject(t) && since.every((s) => !touchesProjectOrLive(textForms(s)));
		since.push(raw);
	}
	return false;
}

function touchesProjectOrLive(t: TextForms): boolean {
	return firstCue(LIVE_STATE, t.text) !== null || refersToProject(t);
}

function lastUserLive(history: readonly HistoryTurn[]): boolean {
	for (let i = history.length - 1; i >= 0; i--) {
		if (history[i]!.role !== 'user') continue;
		const live = firstCue(LIVE_STATE, textForms(history[i]!.content).text);
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
