/**
 * The panel's conversation logic, independent of how messages travel: takes `chat/send`, decides
 * the turn, records it in the session and answers through `post`. No `vscode` import (trust and
 * thresholds arrive as functions).
 */
import type { HostToWebview, StateRestoreParams } from '../core/protocol';
import type { Thresholds } from '../core/thresholds';
import { ConversationSession } from './conversationSession';
import type { Logger } from './logger';
import { runTurn, type DecideFn } from './turnRunner';

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
}

/** Owns the panel's ConversationSession and answers its messages. */
export class ChatController {
	readonly session: ConversationSession;
	private post: PostFn = () => undefined;
	private warmed = false;

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

	/** Handles `chat/send`: decide, record, reply (or report the failure). */
	send(turnId: string, text: string): void {
		const utterance = text.trim();
		if (!utterance) return;
		const now = (this.deps.now ?? Date.now)();
		const restricted = this.deps.isRestricted();
		const outcome = runTurn(
			{
				turnId,
				utterance,
				history: this.session.history(),
				// Store facts (has_workspace_index, …) stay unknown until the store lands, so the
				// core decides on the words and the conversation alone.
				context: { user_turn_times: this.session.userTurnTimes, now, restricted },
				thresholds: this.deps.thresholds(),
			},
			this.deps.log,
			this.deps.decide,
		);
		const first = this.session.entries.length === 0;
		this.session.addUser(turnId, utterance, now);
		if (first) this.deps.onFirstMessage?.();
		if (outcome.ok) {
			const entry = this.session.addAssistant(turnId, utterance, outcome.markdown, outcome.result.trace, outcome.historyText);
			if (entry.kind === 'assistant') this.post('chat/reply', { turnId, markdown: entry.markdown, trace: entry.trace });
		} else {
			this.session.addError(turnId, outcome.message);
			this.post('chat/error', { turnId, message: outcome.message });
		}
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
		this.session.clear();
		this.post('chat/clear', {});
		this.deps.log.info('new conversation');
	}
}
