/**
 * The conversation list. User messages are plain text; replies are sanitised Markdown followed by
 * their decision trace (replyView.ts); errors are plain text, with Retry when retrying may help.
 * The container is an `aria-live` log, so screen readers announce each appended entry. Streamed
 * text is re-rendered at most every STREAM_RENDER_MS, not on every delta.
 */
import { el } from './dom';
import { assistantNode, streamingNode, updateStreamingNode } from './replyView';
import type { PanelEntry, StreamingEntry } from './state';

/** Streamed Markdown is re-rendered at most this often (ms): cheap, and still looks live. */
export const STREAM_RENDER_MS = 50;

function entryNode(entry: PanelEntry, tracesOpen: boolean): HTMLElement {
	switch (entry.kind) {
		case 'user':
			return el(
				'article',
				{ className: 'msg msg-user', attrs: { 'data-turn': entry.turnId, 'aria-label': 'You said' } },
				el('div', { className: 'msg-author' }, 'You'),
				el('div', { className: 'msg-text' }, entry.text),
			);
		case 'assistant':
			return assistantNode(entry, tracesOpen);
		case 'streaming':
			return streamingNode(entry);
		case 'error':
			return el(
				'article',
				{
					className: 'msg msg-error',
					attrs: { 'data-turn': entry.turnId ?? '', 'data-retry-target': entry.turnId ?? '', 'aria-label': 'Error' },
				},
				el('div', { className: 'msg-author' }, 'Error'),
				el('div', { className: 'msg-text' }, entry.message),
				entry.retryable && entry.turnId
					? el(
							'div',
							{ className: 'msg-actions' },
							el(
								'vscode-button',
								{
									className: 'retry',
									attrs: {
										'data-action': 'retry',
										'data-retrieval': 'auto',
										'aria-label': 'Retry this message',
										secondary: '',
									},
								},
								'Retry',
							),
						)
					: null,
			);
	}
}

/** Calls `flush` at most once per `ms`, however often `request` is called in between. */
export class Throttle {
	private pending = false;

	constructor(
		private readonly flush: () => void,
		private readonly ms: number,
		private readonly schedule: (fn: () => void, ms: number) => unknown = (fn, delay) => setTimeout(fn, delay),
	) {}

	request(): void {
		if (this.pending) return;
		this.pending = true;
		this.schedule(() => {
			this.pending = false;
			this.flush();
		}, this.ms);
	}
}

/** Renders entries into the transcript element and keeps the newest in view. */
export class Transcript {
	/** Streaming entries whose text changed since the last render. */
	private readonly dirty = new Map<string, StreamingEntry>();
	private readonly throttle = new Throttle(() => this.flushStreams(), STREAM_RENDER_MS);

	constructor(
		private readonly container: HTMLElement,
		private readonly emptyState: HTMLElement,
	) {}

	/** Replaces everything with `entries`. */
	render(entries: readonly PanelEntry[], tracesOpen: boolean): void {
		this.dirty.clear();
		this.container.replaceChildren(...entries.map((e) => entryNode(e, tracesOpen)));
		this.update(true);
	}

	/** Appends one entry. */
	append(entry: PanelEntry, tracesOpen: boolean): void {
		const follow = this.nearBottom();
		this.container.append(entryNode(entry, tracesOpen));
		this.update(follow);
	}

	/** Replaces the reply node of `turnId` (streaming → final), or appends when it is not shown. */
	replaceReply(entry: PanelEntry, tracesOpen: boolean): void {
		if (entry.turnId === null) return this.append(entry, tracesOpen);
		this.dirty.delete(entry.turnId);
		const old = this.replyNode(entry.turnId);
		if (!old) return this.append(entry, tracesOpen);
		const follow = this.nearBottom();
		old.replaceWith(entryNode(entry, tracesOpen));
		this.update(follow);
	}

	/** Marks a streaming entry's text or progress as changed; it is re-rendered on the next tick. */
	streamChanged(entry: StreamingEntry): void {
		this.dirty.set(entry.turnId, entry);
		this.throttle.request();
	}

	/** Opens or closes every trace. */
	setTracesOpen(open: boolean): void {
		for (const node of this.container.querySelectorAll<HTMLElementTagNameMap['vscode-collapsible']>(
			'vscode-collapsible.trace',
		)) {
			node.open = open;
		}
	}

	private flushStreams(): void {
		const follow = this.nearBottom();
		for (const entry of this.dirty.values()) {
			const node = this.replyNode(entry.turnId);
			if (node?.classList.contains('msg-streaming')) updateStreamingNode(node, entry);
		}
		this.dirty.clear();
		this.update(follow);
	}

	/** The assistant/streaming/error node answering `turnId` (user messages share the id). */
	private replyNode(turnId: string): HTMLElement | undefined {
		for (const node of this.container.querySelectorAll<HTMLElement>(
			'article.msg-assistant, article.msg-streaming, article.msg-error',
		)) {
			if (node.dataset.turn === turnId) return node;
		}
		return undefined;
	}

	/** True when the user has not scrolled up to read: new text then keeps the view at the end. */
	private nearBottom(): boolean {
		const c = this.container;
		return c.scrollHeight - c.scrollTop - c.clientHeight < 48;
	}

	private update(follow: boolean): void {
		this.emptyState.hidden = this.container.childElementCount > 0;
		if (follow) this.container.lastElementChild?.scrollIntoView({ block: 'end' });
	}
}
