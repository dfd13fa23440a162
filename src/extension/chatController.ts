/**
 * The panel's conversation logic, independent of how messages travel: takes `chat/send`, decides
 * the turn, records it in the session and answers through `post`. No `vscode` import (trust and
 * thresholds arrive as functions).
 */
import type { HostToWebview, StateRestoreParams } from '../core/protocol';
import type { Thresholds } from '../core/thresholds';
import type { GateResult } from '../core/types';
import { ConversationSession } from './conversationSession';
import type { Logger } from './logger';
import { describeRetrieval, decisionBody } from './replyText';
import { runTurn, type DecideFn } from './turnRunner';
import type { RetrievalReply } from './workspaceMemory';

/** Searches the workspace tier for a turn (WorkspaceMemory.retrieve); never throws. */
export type RetrieveFn = (query: string, result: GateResult, thresholds: Thresholds) => Promise<RetrievalReply>;

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
	/** Workspace retrieval; without it replies only describe the decision. */
	retrieve?: RetrieveFn;
}

/** Owns the panel's ConversationSession and answers its messages. */
export class ChatController {
	readonly session: ConversationSession;
	private post: PostFn = () => undefined;
	private warmed = false;
	/** Bumped by clear(): a retrieval that finishes after New Conversation is dropped. */
	private generation = 0;

	constructor(private readonly deps: ChatControllerDeps) {
		this.session = new ConversationSession(deps.now);
	}

	/** Connects the controller to the panel that is open now (or detaches with undefined). */
	attach(post: PostFn | undefined): void {
		this.post = post ?? (() => undefined);
	}

	/** The state the panel should show after (re)loading. */
	restoreState(): StateRestoreParams {
		return { entries: this.session.entries, restricted: this.deps.isRestricted() };
	}

	/** Sends the current state to the panel. */
	sendState(): void {
		this.post('state/restore', this.restoreState());
	}

	/**
	 * Handles `chat/send`: decide, record, reply (or report the failure). A turn that retrieves the
	 * workspace tier searches the store first (asynchronously); every other turn is answered
	 * synchronously. Never rejects.
	 */
	async send(turnId: string, text: string): Promise<void> {
		const utterance = text.trim();
		if (!utterance) return;
		const now = (this.deps.now ?? Date.now)();
		const restricted = this.deps.isRestricted();
		const thresholds = this.deps.thresholds();
		const outcome = runTurn(
			{
				turnId,
				utterance,
				history: this.session.history(),
				// Store facts (has_workspace_index, …) stay unknown here, so the core decides on the
				// words and the conversation alone; the search itself says when nothing is indexed.
				context: { user_turn_times: this.session.userTurnTimes, now, restricted },
				thresholds,
			},
			this.deps.log,
			this.deps.decide,
		);
		const first = this.session.entries.length === 0;
		this.session.addUser(turnId, utterance, now);
		if (first) this.deps.onFirstMessage?.();
		if (!outcome.ok) {
			this.session.addError(turnId, outcome.message);
			this.post('chat/error', { turnId, message: outcome.message });
			return;
		}
		let { markdown, historyText } = outcome;
		let trace = outcome.result.trace;
		const retrieve = this.deps.retrieve;
		if (retrieve && !restricted && outcome.result.retrieve && outcome.result.tiers.includes('workspace')) {
			const generation = this.generation;
			let reply: RetrievalReply;
			try {
				reply = await retrieve(utterance, outcome.result, thresholds);
			} catch (e) {
				// RetrieveFn should not throw; if it does, the turn still gets an answer.
				reply = { status: 'error', message: e instanceof Error ? e.message : String(e), steps: [] };
			}
			if (generation !== this.generation) return; // New Conversation while searching
			markdown = describeRetrieval(outcome.result, utterance, restricted, reply);
			historyText = decisionBody(outcome.result, restricted, true);
			trace = { ...trace, steps: [...trace.steps, ...reply.steps] };
		}
		const entry = this.session.addAssistant(turnId, utterance, markdown, trace, historyText);
		if (entry.kind === 'assistant') this.post('chat/reply', { turnId, markdown: entry.markdown, trace: entry.trace });
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
		this.deps.log.debug(`decision core warm-up: ${samples.length} turns, ${failures} failed, ${(performance.now() - t0).toFixed(1)} ms`);
	}

	/** New Conversation: forget everything and clear the panel. */
	clear(): void {
		this.generation++;
		this.session.clear();
		this.post('chat/clear', {});
		this.deps.log.info('new conversation');
	}
}
