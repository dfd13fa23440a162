/**
 * Past panel conversations, kept in the workspace's state (`context.workspaceState`): each one's
 * transcript entries, newest first, at most HISTORY_LIMIT (the oldest is dropped). Only what the
 * panel showed is stored — no settings, no keys. Entries are validated on load, so a corrupt or
 * older state loses that conversation, never the extension. No `vscode`: the Memento is a port.
 */
import {
	isTranscriptEntry,
	type ConversationSummary,
	type HistoryListParams,
	type TranscriptEntry,
} from '../core/protocol';

/** The part of `vscode.Memento` used here. */
export interface StatePort {
	get<T>(key: string): T | undefined;
	update(key: string, value: unknown): PromiseLike<void>;
}

/** Conversations kept; beyond it the least recently active is dropped. */
export const HISTORY_LIMIT = 50;
/**
 * Serialised size kept in workspaceState. Past this, older conversations lose their decision
 * traces first (the transcript stays readable), then the oldest conversations are dropped.
 */
export const HISTORY_MAX_CHARS = 4_000_000;
/** The workspaceState key. */
export const HISTORY_KEY = 'gatedMemory.conversations';
const TITLE_CHARS = 60;

export interface StoredConversation {
	id: string;
	at: number;
	entries: TranscriptEntry[];
}

/** The conversation list over a Memento. */
export class ConversationHistory {
	private list: StoredConversation[];

	constructor(private readonly state: StatePort) {
		this.list = load(state.get<unknown>(HISTORY_KEY));
	}

	/** Saves (or replaces) a conversation and moves it to the top; an empty one is not kept. */
	async save(id: string, entries: readonly TranscriptEntry[], at: number): Promise<void> {
		this.list = this.list.filter((c) => c.id !== id);
		if (entries.length) this.list.unshift({ id, at, entries: [...entries] });
		this.list = fit(this.list.slice(0, HISTORY_LIMIT), HISTORY_MAX_CHARS);
		await this.state.update(HISTORY_KEY, this.list);
	}

	/** A stored conversation's entries, or null when it is not (or no longer) kept. */
	entries(id: string): TranscriptEntry[] | null {
		const found = this.list.find((c) => c.id === id);
		return found ? [...found.entries] : null;
	}

	/** The list the panel shows (newest first) with the active conversation marked. */
	summary(activeId: string): HistoryListParams {
		return { conversations: this.list.map(summarise), activeId };
	}
}

/** Trims the list to `maxChars` of JSON: traces of older conversations go first, then whole conversations (never the newest). */
export function fit(list: StoredConversation[], maxChars: number): StoredConversation[] {
	const sizes = list.map((c) => JSON.stringify(c).length);
	let total = sizes.reduce((a, b) => a + b, 0);
	const out = [...list];
	for (let i = out.length - 1; i > 0 && total > maxChars; i--) {
		const slim = {
			...out[i],
			entries: out[i].entries.map((e) => (e.kind === 'assistant' && e.trace ? { ...e, trace: null } : e)),
		};
		const size = JSON.stringify(slim).length;
		total -= sizes[i] - size;
		sizes[i] = size;
		out[i] = slim;
	}
	while (out.length > 1 && total > maxChars) {
		out.pop();
		total -= sizes.pop() ?? 0;
	}
	return out;
}

function summarise(c: StoredConversation): ConversationSummary {
	const first = c.entries.find((e) => e.kind === 'user');
	const text = first?.kind === 'user' ? first.text.replace(/\s+/g, ' ').trim() : '';
	const title = text.length > TITLE_CHARS ? `${text.slice(0, TITLE_CHARS - 1)}…` : text || 'Conversation';
	return { id: c.id, title, at: c.at, turns: c.entries.filter((e) => e.kind === 'user').length };
}

function load(raw: unknown): StoredConversation[] {
	if (!Array.isArray(raw)) return [];
	const out: StoredConversation[] = [];
	for (const item of raw as unknown[]) {
		if (typeof item !== 'object' || item === null) continue;
		const c = item as Record<string, unknown>;
		if (typeof c.id !== 'string' || typeof c.at !== 'number' || !Array.isArray(c.entries)) continue;
		const entries = (c.entries as unknown[]).filter(isTranscriptEntry);
		if (entries.length) out.push({ id: c.id, at: c.at, entries });
	}
	return out.slice(0, HISTORY_LIMIT);
}
