/**
 * What the panel keeps in VS Code's per-view state slot, so hiding and showing the view (which
 * destroys and recreates the page) loses nothing. Read back through a guard: the slot may hold
 * an older shape after an update.
 */
import { arrayOf, isBoolean, isString, isTranscriptEntry, object, type TranscriptEntry } from '../src/core/protocol';
import type { VsCodeApi } from './vscodeApi';

/** The persisted panel state. */
export interface WebviewState {
	entries: TranscriptEntry[];
	/** The last message sent, recalled by ArrowUp in an empty input. */
	lastSent: string;
	/** Whether traces open expanded (toggled by a command). */
	tracesOpen: boolean;
	/** Unsent input. */
	draft: string;
}

const isWebviewState = object<WebviewState>({
	entries: arrayOf(isTranscriptEntry),
	lastSent: isString,
	tracesOpen: isBoolean,
	draft: isString,
});

/** The stored state, or an empty one when none (or an unreadable one) is stored. */
export function loadState(api: VsCodeApi): WebviewState {
	const stored = api.getState();
	return isWebviewState(stored) ? stored : { entries: [], lastSent: '', tracesOpen: false, draft: '' };
}

/** Stores the state. */
export function saveState(api: VsCodeApi, state: WebviewState): void {
	api.setState(state);
}
