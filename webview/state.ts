/**
 * What the panel keeps in VS Code's per-view state slot, so hiding and showing the view (which
 * destroys and recreates the page) loses nothing. Read back through a guard: the slot may hold
 * an older shape after an update. A reply still streaming when the page went away is restored as
 * *interrupted* (no spinner, no Stop): nothing will resume it unless the host sends more.
 */
import {
	arrayOf,
	isBoolean,
	isNumber,
	isRecord,
	isString,
	isTranscriptEntry,
	object,
	optional,
	type Guard,
	type TranscriptEntry,
} from '../src/core/protocol';
import type { VsCodeApi } from './vscodeApi';

/** A reply being streamed (or one whose stream was cut off by a reload: `interrupted`). */
export interface StreamingEntry {
	kind: 'streaming';
	turnId: string;
	markdown: string;
	generator: string;
	/** The host's latest progress line ("Searching workspace…"); '' once text flows. */
	progress: string;
	at: number;
	retryOf?: string;
	interrupted?: boolean;
}

/** One entry of the panel: the host's transcript entries plus replies in flight. */
export type PanelEntry = TranscriptEntry | StreamingEntry;

/** The persisted panel state. */
export interface WebviewState {
	entries: PanelEntry[];
	/** The last message sent, recalled by ArrowUp in an empty input. */
	lastSent: string;
	/** Whether traces open expanded (toggled by a command). */
	tracesOpen: boolean;
	/** Unsent input. */
	draft: string;
}

export const isStreamingEntry: Guard<StreamingEntry> = (x): x is StreamingEntry =>
	isRecord(x) &&
	x.kind === 'streaming' &&
	object({ turnId: isString, markdown: isString, generator: isString, progress: isString, at: isNumber })(x) &&
	optional(isString)((x as Record<string, unknown>).retryOf) &&
	optional(isBoolean)((x as Record<string, unknown>).interrupted);

const isPanelEntry: Guard<PanelEntry> = (x): x is PanelEntry => isTranscriptEntry(x) || isStreamingEntry(x);

const isWebviewState = object<WebviewState>({
	entries: arrayOf(isPanelEntry),
	lastSent: isString,
	tracesOpen: isBoolean,
	draft: isString,
});

/** An empty state. */
export function emptyState(): WebviewState {
	return { entries: [], lastSent: '', tracesOpen: false, draft: '' };
}

/** Marks replies that were streaming as interrupted (the page that streamed them is gone). */
export function interruptStreams(entries: readonly PanelEntry[]): PanelEntry[] {
	return entries.map((e) => (e.kind === 'streaming' && !e.interrupted ? { ...e, interrupted: true, progress: '' } : e));
}

/** The stored state (streams marked interrupted), or an empty one when none or an unreadable one is stored. */
export function loadState(api: VsCodeApi): WebviewState {
	const stored = api.getState();
	if (!isWebviewState(stored)) return emptyState();
	return { ...stored, entries: interruptStreams(stored.entries) };
}

/** Stores the state. */
export function saveState(api: VsCodeApi, state: WebviewState): void {
	api.setState(state);
}

/**
 * The host's transcript (the source of truth) plus the local replies in flight that it does not
 * hold yet: a streaming entry whose turn has no reply or error from the host is kept at the end,
 * so hiding and showing the panel mid-stream keeps the partial reply.
 */
export function mergeRestored(host: readonly TranscriptEntry[], local: readonly PanelEntry[]): PanelEntry[] {
	const answered = new Set(host.filter((e) => e.kind !== 'user').map((e) => e.turnId));
	const asked = new Set(host.filter((e) => e.kind === 'user').map((e) => e.turnId));
	const inFlight = local.filter(
		(e): e is StreamingEntry =>
			e.kind === 'streaming' &&
			!answered.has(e.turnId) &&
			(asked.has(e.turnId) || (e.retryOf !== undefined && asked.has(e.retryOf))),
	);
	return [...host, ...inFlight];
}
