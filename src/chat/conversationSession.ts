/**
 * One panel conversation: the transcript shown to the user, the history window handed to the
 * decision core, user turn times (rapid-fire detection) and the recent decisions that Inspect
 * Memory State lists. Pure data; no `vscode`.
 */
import type { TranscriptEntry } from '../core/protocol';
import type { DecisionTrace, TraceStep } from '../core/trace';
import type { ChatMessage } from '../generation/generator';
import type { HistoryTurn } from '../core/types';

/** How many turns of history the decision core sees; older turns cannot change a rule's outcome. */
export const HISTORY_WINDOW = 20;
/** Transcript entries kept for restoring the panel; the oldest are dropped first. */
export const TRANSCRIPT_LIMIT = 200;
/** Decisions kept for Inspect Memory State. */
export const RECENT_DECISIONS = 20;

/** A reply as the transcript keeps it. */
export type AssistantEntry = Extract<TranscriptEntry, { kind: 'assistant' }>;

function cut(text: string, max: number): string {
	return text.length > max ? `${text.slice(0, max)}…` : text;
}

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
	/** Recorded replies replayed in place of the generated ones (useRecordedReply). */
	private recorded = new Map<string, string>();
	private started: number;
	private generation = 0;
	private idValue: string;

	constructor(private readonly now: () => number = Date.now) {
		this.started = now();
		this.idValue = this.freshId();
	}

	/** Identifies this conversation; changes on `clear()` and `restore()`. */
	get id(): string {
		return this.idValue;
	}

	private freshId(): string {
		return `conversation-${this.started.toString(36)}-${this.generation}-${Math.random().toString(36).slice(2, 6)}`;
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
		return this.historyOf(this.entriesList);
	}

	private historyOf(entries: readonly TranscriptEntry[]): HistoryTurn[] {
		const turns: HistoryTurn[] = [];
		for (const e of entries) {
			if (e.kind === 'user') turns.push({ role: 'user', content: e.text });
			else if (e.kind === 'assistant')
				turns.push({ role: 'assistant', content: this.historyText.get(e.turnId) ?? e.markdown });
		}
		return turns.slice(-HISTORY_WINDOW);
	}

	/**
	 * The history window as the decision core saw it just before `turnId`'s user message (a retry
	 * re-decides that turn as it stood), or null when the message is no longer in the transcript.
	 */
	historyBefore(turnId: string): { text: string; history: HistoryTurn[] } | null {
		const i = this.entriesList.findIndex((e) => e.kind === 'user' && e.turnId === turnId);
		if (i < 0) return null;
		const user = this.entriesList[i];
		return { text: user.kind === 'user' ? user.text : '', history: this.historyOf(this.entriesList.slice(0, i)) };
	}

	/** The last `turns` user/assistant messages for a model prompt (replies as shown, each cut to `maxChars`). */
	chatWindow(turns: number, maxChars = 4000, before?: string): ChatMessage[] {
		const end =
			before === undefined
				? this.entriesList.length
				: this.entriesList.findIndex((e) => e.kind === 'user' && e.turnId === before);
		const out: ChatMessage[] = [];
		for (const e of this.entriesList.slice(0, end < 0 ? this.entriesList.length : end)) {
			if (e.kind === 'user') out.push({ role: 'user', content: cut(e.text, maxChars) });
			else if (e.kind === 'assistant')
				out.push({ role: 'assistant', content: cut(this.recorded.get(e.turnId) ?? e.markdown, maxChars) });
		}
		return turns > 0 ? out.slice(-turns) : [];
	}

	/** Records the user's message (call after deciding, so the turn is not its own history). */
	addUser(turnId: string, text: string, at: number): void {
		this.turnTimes.push(at);
		this.turnTimes = this.turnTimes.slice(-HISTORY_WINDOW);
		this.push({ kind: 'user', turnId, text, at });
	}

	/** Records a reply, and its decision when it has one; `historyText` replaces it in history(). */
	addAssistant(
		turnId: string,
		utterance: string,
		markdown: string,
		trace: DecisionTrace | null,
		historyText?: string,
		extra: Pick<AssistantEntry, 'citations' | 'status' | 'generator' | 'retryOf' | 'retrieval' | 'actions'> = {},
	): AssistantEntry {
		const entry: AssistantEntry = { kind: 'assistant', turnId, markdown, trace, at: this.now(), ...extra };
		this.push(entry);
		if (historyText !== undefined) this.historyText.set(turnId, historyText);
		if (trace) {
			this.decisions.push({ turnId, at: entry.at, utterance, trace });
			this.decisions = this.decisions.slice(-RECENT_DECISIONS);
		}
		return entry;
	}

	/**
	 * Replaying a recorded conversation (`gmem chat`, `gmem eval ab`): the recorded assistant reply
	 * stands for the generated one in the decision core's history and the model's window from now on.
	 */
	useRecordedReply(turnId: string, text: string): boolean {
		if (!this.entriesList.some((e) => e.kind === 'assistant' && e.turnId === turnId)) return false;
		this.historyText.set(turnId, text);
		this.recorded.set(turnId, text);
		return true;
	}

	/** Adds steps to a recorded reply's trace (what persisting it wrote, after it was shown). */
	appendSteps(turnId: string, steps: readonly TraceStep[]): void {
		if (!steps.length) return;
		for (let i = this.entriesList.length - 1; i >= 0; i--) {
			const e = this.entriesList[i];
			if (e.kind !== 'assistant' || e.turnId !== turnId) continue;
			if (e.trace) this.entriesList[i] = { ...e, trace: { ...e.trace, steps: [...e.trace.steps, ...steps] } };
			return;
		}
	}

	/** Records a failure shown in place of a reply. */
	addError(turnId: string | null, message: string, retryable?: boolean): TranscriptEntry {
		const entry: TranscriptEntry = {
			kind: 'error',
			turnId,
			message,
			at: this.now(),
			...(retryable === undefined ? {} : { retryable }),
		};
		this.push(entry);
		return entry;
	}

	/** Starts a new conversation: forgets transcript, history, turn times and decisions. */
	clear(): void {
		this.entriesList = [];
		this.turnTimes = [];
		this.decisions = [];
		this.historyText.clear();
		this.recorded.clear();
		this.started = this.now();
		this.generation++;
		this.idValue = this.freshId();
	}

	/** Reopens a past conversation: its id and transcript (turn times and decisions start empty). */
	restore(id: string, entries: readonly TranscriptEntry[]): void {
		this.clear();
		this.idValue = id;
		this.entriesList = entries.slice(-TRANSCRIPT_LIMIT);
	}

	private push(entry: TranscriptEntry): void {
		this.entriesList.push(entry);
		if (this.entriesList.length <= TRANSCRIPT_LIMIT) return;
		for (const dropped of this.entriesList.splice(0, this.entriesList.length - TRANSCRIPT_LIMIT)) {
			if (dropped.turnId !== null) {
				this.historyText.delete(dropped.turnId);
				this.recorded.delete(dropped.turnId);
			}
		}
	}
}
