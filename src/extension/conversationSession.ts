/**
 * One panel conversation: the transcript shown to the user, the history window handed to the
 * decision core, user turn times (rapid-fire detection) and the recent decisions that Inspect
 * Memory State lists. Pure data; no `vscode`.
 */
import type { TranscriptEntry } from '../core/protocol';
import type { DecisionTrace } from '../core/trace';
import type { HistoryTurn } from '../core/types';

/** How many turns of history the decision core sees; older turns cannot change a rule's outcome. */
export const HISTORY_WINDOW = 20;
/** Transcript entries kept for restoring the panel; the oldest are dropped first. */
export const TRANSCRIPT_LIMIT = 200;
/** Decisions kept for Inspect Memory State. */
export const RECENT_DECISIONS = 20;

/** A decision as Inspect Memory State shows it. */
export interface RecentDecision {
	turnId: string;
	at: number;
	utterance: string;
	trace: DecisionTrace;
}

/** A conversation's transcript, history window and recent decisions. */
export class ConversationSession {
	private entriesList: TranscriptEntry[] = [];
	private turnTimes: number[] = [];
	private decisions: RecentDecision[] = [];
	/** What the history window carries for a reply, when it differs from the shown Markdown. */
	private historyText = new Map<string, string>();
	private started: number;
	private generation = 0;

	constructor(private readonly now: () => number = Date.now) {
		this.started = now();
	}

	/** Identifies this conversation; changes on `clear()`. */
	get id(): string {
		return `conversation-${this.started.toString(36)}-${this.generation}`;
	}

	get startedAt(): number {
		return this.started;
	}

	/** The transcript, oldest first (a copy). */
	get entries(): TranscriptEntry[] {
		return [...this.entriesList];
	}

	/** Epoch ms of earlier user turns, oldest first (a copy). */
	get userTurnTimes(): number[] {
		return [...this.turnTimes];
	}

	/** Recent decisions, newest last (a copy). */
	get recentDecisions(): RecentDecision[] {
		return [...this.decisions];
	}

	/** The last HISTORY_WINDOW user/assistant turns, in the shape the decision core takes. */
	history(): HistoryTurn[] {
		const turns: HistoryTurn[] = [];
		for (const e of this.entriesList) {
			if (e.kind === 'user') turns.push({ role: 'user', content: e.text });
			else if (e.kind === 'assistant') turns.push({ role: 'assistant', content: this.historyText.get(e.turnId) ?? e.markdown });
		}
		return turns.slice(-HISTORY_WINDOW);
	}

	/** Records the user's message (call after deciding, so the turn is not its own history). */
	addUser(turnId: string, text: string, at: number): void {
		this.turnTimes.push(at);
		this.turnTimes = this.turnTimes.slice(-HISTORY_WINDOW);
		this.push({ kind: 'user', turnId, text, at });
	}

	/** Records a reply, and its decision when it has one; `historyText` replaces it in history(). */
	addAssistant(turnId: string, utterance: string, markdown: string, trace: DecisionTrace | null, historyText?: string): TranscriptEntry {
		const entry: TranscriptEntry = { kind: 'assistant', turnId, markdown, trace, at: this.now() };
		this.push(entry);
		if (historyText !== undefined) this.historyText.set(turnId, historyText);
		if (trace) {
			this.decisions.push({ turnId, at: entry.at, utterance, trace });
			this.decisions = this.decisions.slice(-RECENT_DECISIONS);
		}
		return entry;
	}

	/** Records a failure shown in place of a reply. */
	addError(turnId: string | null, message: string): TranscriptEntry {
		const entry: TranscriptEntry = { kind: 'error', turnId, message, at: this.now() };
		this.push(entry);
		return entry;
	}

	/** Starts a new conversation: forgets transcript, history, turn times and decisions. */
	clear(): void {
		this.entriesList = [];
		this.turnTimes = [];
		this.decisions = [];
		this.historyText.clear();
		this.started = this.now();
		this.generation++;
	}

	private push(entry: TranscriptEntry): void {
		this.entriesList.push(entry);
		if (this.entriesList.length <= TRANSCRIPT_LIMIT) return;
		for (const dropped of this.entriesList.splice(0, this.entriesList.length - TRANSCRIPT_LIMIT)) {
			if (dropped.turnId !== null) this.historyText.delete(dropped.turnId);
		}
	}
}
