/**
 * "Remember this?" chips (`gatedMemory.memory.writes: confirm`): each pending memory proposal is
 * shown under the reply that proposed it, with Approve / Edit / Discard; a proposal whose reply is
 * not in the transcript (another conversation, before a reload) is listed below the transcript.
 * After a decision the chip shows what happened. All text goes in through textContent.
 *
 * Class names the e2e relies on: `div.memory-chip[data-proposal][data-state]`, buttons
 * `button[data-chip=approve|edit|discard|save|cancel]`, the editor `textarea.memory-chip-edit`.
 */
import type { ProposalView, WebviewToHost } from '../src/core/protocol';
import { el } from './dom';

type Send = <K extends 'memory/approve' | 'memory/discard'>(type: K, params: WebviewToHost[K]) => void;

const KIND_WORDS = {
	qa: 'Q&A',
	correction: 'correction',
	instruction: 'standing instruction',
	profile: 'profile fact',
} as const;
const TIER_WORDS = { research: 'research memory', profile: 'profile' } as const;

export class ProposalChips {
	private proposals: ProposalView[] = [];
	/** Chips being edited: their draft survives a refresh of the list. */
	private readonly drafts = new Map<string, string>();
	private readonly orphans: HTMLElement;

	constructor(
		private readonly transcript: HTMLElement,
		private readonly send: Send,
	) {
		this.orphans = el('section', {
			className: 'memory-orphans',
			attrs: { 'aria-label': 'Memories awaiting approval', hidden: '' },
		});
		transcript.after(this.orphans);
		// Replies are re-rendered (reload, settle, state restore): put the chips back under them.
		new MutationObserver(() => this.apply()).observe(transcript, { childList: true });
	}

	/** The host's current list. */
	set(proposals: readonly ProposalView[]): void {
		this.proposals = [...proposals];
		for (const id of [...this.drafts.keys()])
			if (!this.proposals.some((p) => p.id === id && p.state === 'pending')) this.drafts.delete(id);
		this.apply();
	}

	private apply(): void {
		const shown = new Set<string>();
		const orphanNodes: HTMLElement[] = [];
		for (const p of this.proposals) {
			shown.add(p.id);
			const reply = this.replyNode(p.turnId);
			const existing = this.chipNode(p.id);
			const node =
				existing && existing.dataset.state === p.state && existing.dataset.note === (p.note ?? '')
					? existing
					: this.chip(p);
			if (reply) {
				if (node.parentElement !== reply) {
					const actions = reply.querySelector('.msg-actions');
					if (actions) actions.before(node);
					else reply.append(node);
				} else if (node !== existing) existing?.replaceWith(node);
			} else if (p.state === 'pending') orphanNodes.push(node);
			else node.remove();
		}
		for (const stale of document.querySelectorAll<HTMLElement>('div.memory-chip'))
			if (!shown.has(stale.dataset.proposal ?? '')) stale.remove();
		this.orphans.replaceChildren(
			...(orphanNodes.length ? [el('h3', { text: 'Awaiting your approval' }), ...orphanNodes] : []),
		);
		this.orphans.hidden = orphanNodes.length === 0;
	}

	private chip(p: ProposalView): HTMLElement {
		const title =
			p.state === 'pending'
				? 'Remember this?'
				: p.state === 'approved'
					? 'Remembered'
					: p.state === 'discarded'
						? 'Not remembered'
						: 'Not saved';
		const node = el(
			'div',
			{
				className: `memory-chip memory-chip-${p.state}`,
				attrs: {
					'data-proposal': p.id,
					'data-state': p.state,
					'data-note': p.note ?? '',
					role: 'group',
					'aria-label': `${title} ${KIND_WORDS[p.kind]}`,
				},
			},
			el(
				'div',
				{ className: 'memory-chip-title' },
				el('strong', { text: title }),
				` · ${KIND_WORDS[p.kind]} → ${TIER_WORDS[p.tier]}`,
			),
		);
		const draft = this.drafts.get(p.id);
		if (p.state === 'pending' && draft !== undefined) node.append(...this.editor(p, draft));
		else {
			node.append(el('div', { className: 'memory-chip-text', text: p.text }));
			if (p.state === 'pending') {
				node.append(
					el(
						'div',
						{ className: 'memory-chip-actions' },
						this.button('approve', 'Approve', 'Store this memory', () => this.send('memory/approve', { id: p.id })),
						this.button('edit', 'Edit', 'Edit before storing', () => {
							this.drafts.set(p.id, p.text);
							this.chipNode(p.id)?.replaceWith(this.chip(p));
						}),
						this.button('discard', 'Discard', 'Do not store this', () => this.send('memory/discard', { id: p.id })),
					),
				);
			}
		}
		if (p.note) node.append(el('p', { className: 'memory-chip-note', attrs: { role: 'status' }, text: p.note }));
		return node;
	}

	private editor(p: ProposalView, draft: string): HTMLElement[] {
		const area = el('textarea', {
			className: 'memory-chip-edit',
			attrs: { rows: '3', 'aria-label': 'Memory text to store' },
		});
		area.value = draft;
		area.addEventListener('input', () => this.drafts.set(p.id, area.value));
		setTimeout(() => area.focus(), 0);
		return [
			area,
			el(
				'div',
				{ className: 'memory-chip-actions' },
				this.button('save', 'Save and remember', 'Store the edited text', () => {
					this.drafts.delete(p.id);
					this.send('memory/approve', { id: p.id, text: area.value });
				}),
				this.button('cancel', 'Cancel', 'Keep the proposal as it was', () => {
					this.drafts.delete(p.id);
					this.chipNode(p.id)?.replaceWith(this.chip(p));
				}),
			),
		];
	}

	private button(action: string, text: string, label: string, onClick: () => void): HTMLButtonElement {
		const b = el(
			'button',
			{
				className: `msg-action memory-chip-${action}`,
				attrs: { type: 'button', 'data-chip': action, title: label, 'aria-label': label },
			},
			text,
		);
		b.addEventListener('click', (e) => {
			e.stopPropagation();
			onClick();
		});
		return b;
	}

	private chipNode(id: string): HTMLElement | null {
		for (const n of document.querySelectorAll<HTMLElement>('div.memory-chip')) if (n.dataset.proposal === id) return n;
		return null;
	}

	private replyNode(turnId: string): HTMLElement | null {
		for (const n of this.transcript.querySelectorAll<HTMLElement>('article.msg-assistant'))
			if (n.dataset.turn === turnId) return n;
		return null;
	}
}
