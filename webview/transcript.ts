/**
 * The conversation list. User messages are plain text; replies are sanitised Markdown followed by
 * their decision trace; errors are plain text. The container is an `aria-live` log, so screen
 * readers announce each appended entry.
 */
import type { TranscriptEntry } from '../src/core/protocol';
import { el } from './dom';
import { renderMarkdown } from './markdown';
import { renderTrace } from './traceView';

function entryNode(entry: TranscriptEntry, tracesOpen: boolean): HTMLElement {
	switch (entry.kind) {
		case 'user':
			return el(
				'article',
				{ className: 'msg msg-user', attrs: { 'data-turn': entry.turnId, 'aria-label': 'You said' } },
				el('div', { className: 'msg-author' }, 'You'),
				el('div', { className: 'msg-text' }, entry.text),
			);
		case 'assistant': {
			const body = el('div', { className: 'msg-markdown' });
			body.append(renderMarkdown(entry.markdown));
			return el(
				'article',
				{ className: 'msg msg-assistant', attrs: { 'data-turn': entry.turnId, 'aria-label': 'Gated Memory replied' } },
				el('div', { className: 'msg-author' }, 'Gated Memory'),
				body,
				entry.trace ? renderTrace(entry.trace, tracesOpen) : null,
			);
		}
		case 'error':
			return el(
				'article',
				{ className: 'msg msg-error', attrs: { 'data-turn': entry.turnId ?? '', 'aria-label': 'Error' } },
				el('div', { className: 'msg-author' }, 'Error'),
				el('div', { className: 'msg-text' }, entry.message),
			);
	}
}

/** Renders entries into the transcript element and keeps the newest in view. */
export class Transcript {
	constructor(
		private readonly container: HTMLElement,
		private readonly emptyState: HTMLElement,
	) {}

	/** Replaces everything with `entries`. */
	render(entries: readonly TranscriptEntry[], tracesOpen: boolean): void {
		this.container.replaceChildren(...entries.map((e) => entryNode(e, tracesOpen)));
		this.update();
	}

	/** Appends one entry. */
	append(entry: TranscriptEntry, tracesOpen: boolean): void {
		this.container.append(entryNode(entry, tracesOpen));
		this.update();
	}

	/** Opens or closes every trace. */
	setTracesOpen(open: boolean): void {
		for (const node of this.container.querySelectorAll<HTMLElementTagNameMap['vscode-collapsible']>('vscode-collapsible.trace')) {
			node.open = open;
		}
	}

	private update(): void {
		this.emptyState.hidden = this.container.childElementCount > 0;
		this.container.lastElementChild?.scrollIntoView({ block: 'end' });
	}
}
