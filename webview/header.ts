/**
 * The panel header: which generator writes the replies ("Evidence only (no model)",
 * "llama3 · OpenAI-compatible"), the conversation history (a native `<select>`: keyboard and
 * screen-reader support for free, themed with the dropdown colours) and New conversation.
 */
import type { ConversationSummary, GeneratorInfoParams, HistoryListParams } from '../src/core/protocol';
import { el } from './dom';

/** The option shown for a conversation the list does not hold yet (or before the host answers). */
export const CURRENT = 'Current conversation';

/** "Fix the retry loop · 14:05" today, "Fix the retry loop · 28 Nov" on an earlier day. */
export function historyOptionLabel(c: ConversationSummary, now: number): string {
	const at = new Date(c.at);
	const today = new Date(now).toDateString() === at.toDateString();
	const when = today
		? `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`
		: `${at.getDate()} ${at.toLocaleString('en', { month: 'short' })}`;
	const title = c.title.trim() || 'New conversation';
	return `${title.length > 48 ? `${title.slice(0, 47)}…` : title} · ${when}`;
}

/** Wires the header's controls; the host's answers update it through `setGenerator`/`setHistory`. */
export class Header {
	constructor(
		private readonly generator: HTMLElement,
		private readonly history: HTMLSelectElement,
		newButton: HTMLElement,
		events: { open(id: string): void; newConversation(): void },
	) {
		this.history.addEventListener('change', () => {
			if (this.history.value) events.open(this.history.value);
		});
		newButton.addEventListener('click', (e) => {
			e.preventDefault();
			events.newConversation();
		});
	}

	setGenerator(info: GeneratorInfoParams): void {
		this.generator.textContent = info.label;
		this.generator.dataset.kind = info.kind;
		this.generator.title = `Replies are written by: ${info.label}`;
	}

	setHistory(list: HistoryListParams, now = Date.now()): void {
		const conversations = [...list.conversations].sort((a, b) => b.at - a.at);
		this.history.replaceChildren(
			...conversations.map((c) =>
				el(
					'option',
					{ attrs: { value: c.id, title: `${c.title} — ${c.turns} turn${c.turns === 1 ? '' : 's'}` } },
					historyOptionLabel(c, now),
				),
			),
		);
		if (!conversations.some((c) => c.id === list.activeId))
			this.history.prepend(el('option', { attrs: { value: '' } }, CURRENT));
		this.history.value = conversations.some((c) => c.id === list.activeId) ? list.activeId : '';
		this.history.disabled = conversations.length === 0;
	}
}
