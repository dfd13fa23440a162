/**
 * The panel's conversation logic, independent of how messages travel: answers `chat/send` and
 * `chat/retry` through the turn pipeline (decide → retrieve → generate, streamed), stops turns,
 * keeps past conversations, and talks back through `post`. No `vscode` import (trust, settings,
 * the generator and the store arrive as functions).
 */
import type { HookRegistry } from '../core/hooks';
import type { GeneratorInfoParams, HostToWebview, RetrievalOverride, StateRestoreParams } from '../core/protocol';
import type { Thresholds } from '../core/thresholds';
import type { TraceStep } from '../core/trace';
import type { HistoryTurn } from '../core/types';
import { EvidenceOnlyGenerator } from '../generation/evidenceOnlyGenerator';
import type { ChatMessage, Generator } from '../generation/generator';
import { ConversationHistory, type StatePort } from './conversationHistory';
import { ConversationSession } from './conversationSession';
import { ActionBook, type ActionRunner } from './liveState/actionBook';
import type { LiveStateHost } from './liveState/liveStatePorts';
import { errorMessage, type Logger } from './logger';
import type { MemoryPort, RetrieveFn } from './turnEvidence';
import type { PersistFn } from './turnPersistence';
import { runPipeline, type PipelinePorts } from './turnPipeline';
import { runTurn, type DecideFn } from './turnRunner';
import { runMemoryAction, type MemoryCommandPort } from './memoryCommandTurn';

export type { RetrieveFn } from './turnEvidence';

/** Sends one host → webview message (a no-op while the panel is closed). */
export type PostFn = <K extends keyof HostToWebview & string>(type: K, params: HostToWebview[K]) => void;

/** What the controller needs from the host. */
export interface ChatControllerDeps {
	log: Logger;
	/** Thresholds resolved from settings (invalid settings already reported and defaulted). */
	thresholds: () => Thresholds;
	/** True in Restricted Mode (untrusted workspace). */
	isRestricted: () => boolean;
	/** Called after the first message of a conversation (hides the first-run welcome). */
	onFirstMessage?: () => void;
	decide?: DecideFn;
	now?: () => number;
	/** Workspace retrieval; without it the workspace tier is noted as not searched. */
	retrieve?: RetrieveFn;
	/** Research/profile recall and standing instructions. */
	memory?: MemoryPort;
	/** The write path after each reply. */
	persist?: PersistFn;
	/** Maps a cited workspace-relative path to a `file:` URI inside its folder. */
	toUri?: (path: string) => string | null;
	hooks?: HookRegistry;
	/** The generator chosen in settings (created lazily); default: evidence-only. */
	generator?: () => Promise<Generator>;
	/** Where past conversations are kept (`context.workspaceState`); none: no history list. */
	state?: StatePort;
	/** The generator's silence budget (default GENERATION_STALL_MS, see generationBudget.ts); tests shorten it. */
	generationStallMs?: number;
	/** Live editor state for `tool` turns, and the runner of the actions a reply proposes (on click only). */
	live?: LiveStateHost;
	actions?: ActionRunner;
	/** What this host cannot offer, noted in every turn's trace (PipelinePorts.hostNotes). */
	hostNotes?: readonly string[];
	/** Explicit "remember that …" / "forget that …" in chat (PipelinePorts.memoryCommands). */
	memoryCommands?: MemoryCommandPort;
}

const EVIDENCE_ONLY = new EvidenceOnlyGenerator();

/** One turn to answer: a new message, or a retry of an earlier one. */
interface TurnJob {
	userTurnId: string;
	replyTurnId: string;
	utterance: string;
	history: HistoryTurn[];
	chat: ChatMessage[];
	userTurnTimes: number[];
	now: number;
	retrieval: RetrievalOverride;
	retryOf?: string;
}

/** Owns the panel's ConversationSession and answers its messages. */
export class ChatController {
	readonly session: ConversationSession;
	private readonly history: ConversationHistory | null;
	private post: PostFn = () => undefined;
	private warmed = false;
	/** Bumped when the conversation changes: a turn that finishes afterwards is dropped. */
	private epoch = 0;
	private readonly inflight = new Map<string, AbortController>();
	private generatorInfo: GeneratorInfoParams = EVIDENCE_ONLY.info;
	private readonly actionBook = new ActionBook();

	constructor(private readonly deps: ChatControllerDeps) {
		this.session = new ConversationSession(deps.now);
		this.history = deps.state ? new ConversationHistory(deps.state) : null;
	}

	/** Connects the controller to the panel that is open now (or detaches with undefined). */
	attach(post: PostFn | undefined): void {
		this.post = post ?? (() => undefined);
	}

	/** The state the panel should show after (re)loading. */
	restoreState(): StateRestoreParams {
		const state: StateRestoreParams = {
			entries: this.session.entries,
			restricted: this.deps.isRestricted(),
			generator: this.generatorInfo,
		};
		if (this.history) state.history = this.history.summary(this.session.id);
		return state;
	}

	/** Sends the current state to the panel. */
	sendState(): void {
		this.post('state/restore', this.restoreState());
	}

	/** The generator changed (settings, key): remember its label and tell the panel's header. */
	setGeneratorInfo(info: GeneratorInfoParams): void {
		this.generatorInfo = { kind: info.kind, label: info.label };
		this.post('generator/info', this.generatorInfo);
	}

	/**
	 * Adds steps to a reply's trace after the fact (a memory proposal approved or discarded), keeps
	 * them in history and re-sends the state so the panel shows them. A turn of another
	 * conversation is not in this session: nothing to update here.
	 */
	async appendTraceSteps(turnId: string, steps: readonly TraceStep[]): Promise<void> {
		if (!steps.length || !this.session.entries.some((e) => e.kind === 'assistant' && e.turnId === turnId)) return;
		this.session.appendSteps(turnId, steps);
		await this.saveHistory();
		this.sendState();
	}

	/** Turns still streaming (their ids). */
	get inflightTurns(): string[] {
		return [...this.inflight.keys()];
	}

	/** Handles `chat/send`: records the message, then answers it through the pipeline. Never rejects. */
	async send(turnId: string, text: string): Promise<void> {
		const utterance = text.trim();
		if (!utterance) return;
		const now = (this.deps.now ?? Date.now)();
		const windowTurns = this.deps.thresholds().conversation_window_turns;
		const job: TurnJob = {
			userTurnId: turnId,
			replyTurnId: turnId,
			utterance,
			history: this.session.history(),
			chat: this.session.chatWindow(windowTurns),
			userTurnTimes: this.session.userTurnTimes,
			now,
			retrieval: 'auto',
		};
		const first = this.session.entries.length === 0;
		this.session.addUser(turnId, utterance, now);
		if (first) this.deps.onFirstMessage?.();
		await this.answer(job);
	}

	/**
	 * Handles `chat/retry`: answers the user message of `turnId` (or of the reply `turnId` retried)
	 * again as reply `newTurnId`, with retrieval as decided, forced or skipped. Never rejects.
	 */
	async retry(turnId: string, newTurnId: string, retrieval: RetrievalOverride): Promise<void> {
		const userTurnId = this.userTurnOf(turnId);
		const before = userTurnId === null ? null : this.session.historyBefore(userTurnId);
		if (userTurnId === null || before === null) {
			this.post('chat/error', {
				turnId: newTurnId,
				message: 'That message is no longer in this conversation, so it cannot be retried.',
				retryable: false,
			});
			return;
		}
		await this.answer({
			userTurnId,
			replyTurnId: newTurnId,
			utterance: before.text,
			history: before.history,
			chat: this.session.chatWindow(this.deps.thresholds().conversation_window_turns, undefined, userTurnId),
			userTurnTimes: this.session.userTurnTimes.slice(0, -1),
			now: (this.deps.now ?? Date.now)(),
			retrieval,
			retryOf: turnId,
		});
	}

	/** Handles `chat/stop`: cancels that turn's retrieval wait and generation; its partial reply is kept. */
	stop(turnId: string): void {
		const controller = this.inflight.get(turnId);
		if (!controller) return;
		controller.abort();
		this.deps.log.info(`turn ${turnId}: stopped by the user`);
	}

	/** New Conversation: stops what is streaming, keeps the old one in history, clears the panel. */
	async newConversation(): Promise<void> {
		const leaving = this.switchAway();
		this.session.clear();
		this.post('chat/clear', {});
		this.deps.log.info('new conversation');
		await leaving;
		this.postHistory();
	}

	/** The command's synchronous form (kept for callers that do not await). */
	clear(): void {
		void this.newConversation();
	}

	/** Handles `history/open`: switches to a past conversation (stopping what is streaming). */
	async openConversation(id: string): Promise<void> {
		if (id === this.session.id) return this.sendState();
		const entries = this.history?.entries(id) ?? null;
		if (!entries) {
			this.post('chat/error', {
				turnId: null,
				message: 'That conversation is no longer kept (at most 50 are).',
				retryable: false,
			});
			this.postHistory();
			return;
		}
		const leaving = this.switchAway();
		this.session.restore(id, entries);
		this.deps.log.info(`opened conversation ${id} (${entries.length} entries)`);
		await leaving;
		this.sendState();
	}

	/**
	 * Runs one throw-away decision so the user's first turn does not pay for the core's cold start
	 * (module init, regex compilation, JIT: tens of ms once, then µs). Nothing is recorded.
	 */
	warmUp(): void {
		if (this.warmed) return;
		this.warmed = true;
		const t0 = performance.now();
		// A few different turns: V8 needs two or three calls per path before the code is optimised.
		const samples = ['hello', 'How does parseConfig in src/config.ts handle invalid input?', 'thanks, and the tests?'];
		const failures = samples
			.map((utterance, i) =>
				runTurn(
					{
						turnId: `warm-up-${i}`,
						utterance,
						// Earlier samples as history, so the follow-up scorer's history path warms up too.
						history: samples.slice(0, i).map((content) => ({ role: 'user' as const, content })),
						context: { now: Date.now() },
						thresholds: this.deps.thresholds(),
					},
					this.deps.log,
					this.deps.decide,
				),
			)
			.filter((o) => !o.ok).length;
		this.deps.log.debug(
			`decision core warm-up: ${samples.length} turns, ${failures} failed, ${(performance.now() - t0).toFixed(1)} ms`,
		);
	}

	/** Runs the pipeline for one job and records/posts what it gives. Never rejects. */
	private async answer(job: TurnJob): Promise<void> {
		const epoch = this.epoch;
		const live = () => epoch === this.epoch;
		const abort = new AbortController();
		this.inflight.set(job.replyTurnId, abort);
		const restricted = this.deps.isRestricted();
		const conversationId = this.session.id;
		const retryFields = job.retryOf === undefined ? {} : { retryOf: job.retryOf };
		try {
			const generator = await this.currentGenerator();
			const outcome = await runPipeline(
				this.ports(),
				{
					turnId: job.replyTurnId,
					utterance: job.utterance,
					history: job.history,
					chat: job.chat,
					// Store facts (has_workspace_index, …) stay unknown here, so the core decides on the
					// words and the conversation alone; the search itself says when nothing is indexed.
					context: { user_turn_times: job.userTurnTimes, now: job.now, restricted },
					thresholds: this.deps.thresholds(),
					retrieval: job.retrieval,
					generator,
					signal: abort.signal,
					conversationId,
				},
				{
					progress: (message) => live() && this.post('chat/progress', { turnId: job.replyTurnId, message }),
					start: (label) =>
						live() && this.post('chat/start', { turnId: job.replyTurnId, generator: label, ...retryFields }),
					delta: (text) => live() && this.post('chat/delta', { turnId: job.replyTurnId, text }),
				},
			);
			if (!live()) return; // New Conversation / another conversation opened meanwhile
			if (outcome.kind === 'error') {
				this.session.addError(job.replyTurnId, outcome.message, outcome.retryable);
				this.post('chat/error', { turnId: job.replyTurnId, message: outcome.message, retryable: outcome.retryable });
				await this.saveHistory();
				return;
			}
			const proposed = outcome.actions?.length ? { actions: outcome.actions.map((a) => a.action) } : {};
			this.actionBook.remember(job.replyTurnId, outcome.actions);
			const extra = {
				citations: outcome.citations,
				status: outcome.status,
				generator: outcome.generator,
				...retryFields,
				...(job.retryOf ? { retrieval: job.retrieval } : {}),
				...proposed,
			};
			const entry = this.session.addAssistant(
				job.replyTurnId,
				job.utterance,
				outcome.markdown,
				outcome.trace,
				outcome.historyText,
				extra,
			);
			this.post('chat/reply', { turnId: entry.turnId, markdown: entry.markdown, trace: entry.trace, ...extra });
			await this.saveHistory();
			const steps = await outcome.persist();
			if (live() && steps.length) {
				this.session.appendSteps(job.replyTurnId, steps);
				// The open panel shows what was written under the reply it belongs to.
				this.post('chat/persisted', { turnId: job.replyTurnId, steps });
				await this.saveHistory();
			}
		} catch (e) {
			// runPipeline never rejects; this guards the controller's own bookkeeping.
			this.deps.log.error(e instanceof Error ? e : new Error(errorMessage(e)));
			if (live())
				this.post('chat/error', {
					turnId: job.replyTurnId,
					message: `This turn failed: ${errorMessage(e)}. Your message is kept.`,
					retryable: true,
				});
		} finally {
			if (this.inflight.get(job.replyTurnId) === abort) this.inflight.delete(job.replyTurnId);
		}
	}

	/** Handles `action/run`: the user clicked a proposed action; runs it (once) and records it in the reply's trace. */
	async runAction(turnId: string, actionId: string): Promise<void> {
		const done = await this.actionBook.run(turnId, actionId, this.runner(), this.deps.isRestricted());
		this.deps.log.info(`turn ${turnId}: action ${actionId} ${done.status}: ${done.message}`);
		this.session.appendSteps(turnId, [done.step]);
		this.post('action/status', { turnId, actionId, status: done.status, message: done.message });
		await this.saveHistory();
	}

	/** The editor's runner, except for memory actions (a chat forget's Undo), which the chat runs on the store. */
	private runner(): ActionRunner | undefined {
		const editor = this.deps.actions;
		const memory = this.deps.memoryCommands;
		if (!memory) return editor;
		return {
			run: (run, proposal) =>
				run.kind === 'memory'
					? runMemoryAction(memory, run)
					: editor
						? editor.run(run, proposal)
						: Promise.resolve({ status: 'unavailable' as const, message: 'This host cannot run actions.' }),
		};
	}

	private ports(): PipelinePorts {
		const d = this.deps;
		return {
			log: d.log,
			retrieve: d.retrieve,
			memory: d.memory,
			persist: d.persist,
			toUri: d.toUri,
			hooks: d.hooks,
			decide: d.decide,
			generationStallMs: d.generationStallMs,
			live: d.live,
			hostNotes: d.hostNotes,
			memoryCommands: d.memoryCommands,
		};
	}

	private async currentGenerator(): Promise<Generator> {
		if (!this.deps.generator) return EVIDENCE_ONLY;
		try {
			const generator = await this.deps.generator();
			if (generator.info.label !== this.generatorInfo.label) this.setGeneratorInfo(generator.info);
			return generator;
		} catch (e) {
			this.deps.log.warn(`no generator (${errorMessage(e)}): answering in evidence-only mode`);
			return EVIDENCE_ONLY;
		}
	}

	/** The user message a turn id stands for: itself, or the message a retried reply answered. */
	private userTurnOf(turnId: string): string | null {
		const entries = this.session.entries;
		if (entries.some((e) => e.kind === 'user' && e.turnId === turnId)) return turnId;
		const reply = entries.find((e) => e.kind === 'assistant' && e.turnId === turnId);
		return reply?.kind === 'assistant' && reply.retryOf !== undefined ? this.userTurnOf(reply.retryOf) : null;
	}

	/**
	 * Leaving the current conversation: stop its turns, drop their late results, and keep what it
	 * holds so far in history (a message still unanswered included). Resolves when saved.
	 */
	private switchAway(): Promise<void> {
		this.epoch++;
		for (const controller of this.inflight.values()) controller.abort();
		this.inflight.clear();
		if (!this.history || this.session.entries.length === 0) return Promise.resolve();
		return this.history
			.save(this.session.id, this.session.entries, (this.deps.now ?? Date.now)())
			.catch((e: unknown) => this.deps.log.warn(`conversation history not saved: ${errorMessage(e)}`));
	}

	private async saveHistory(): Promise<void> {
		if (!this.history) return;
		try {
			await this.history.save(this.session.id, this.session.entries, (this.deps.now ?? Date.now)());
		} catch (e) {
			this.deps.log.warn(`conversation history not saved: ${errorMessage(e)}`);
		}
		this.postHistory();
	}

	private postHistory(): void {
		if (this.history) this.post('history/list', this.history.summary(this.session.id));
	}
}
