/**
 * The controls of the actions a reply proposes ("Run in Terminal", "Revert", "Commit…", "Apply
 * Edit"): each shows the exact command or operation and a button; a click sends only the ids
 * (`action/run`) — the host holds the action and runs nothing until then. `action/status` says
 * what happened. Class names the e2e relies on: `.msg-proposals`, `button.proposal-run`
 * (`data-action-id`), `.proposal-status`.
 */
import type { ActionStatusParams, ProposedAction } from '../src/core/protocol';
import { el } from './dom';

export function proposedActionsNode(actions: readonly ProposedAction[]): HTMLElement {
	return el(
		'div',
		{
			className: 'msg-proposals',
			attrs: { role: 'group', 'aria-label': 'Proposed actions (nothing runs until you click)' },
		},
		...actions.map((a) =>
			el(
				'div',
				{ className: `proposal proposal-${a.kind}`, attrs: { 'data-action-id': a.id } },
				el('code', { className: 'proposal-detail' }, a.detail),
				el(
					'button',
					{
						className: 'msg-action proposal-run',
						attrs: {
							type: 'button',
							'data-action': 'run-proposed',
							'data-action-id': a.id,
							title: a.confirm ? `${a.label} (asks for confirmation first)` : a.label,
							'aria-label': `${a.label}: ${a.detail}`,
						},
					},
					a.label,
				),
				el('span', { className: 'proposal-status', attrs: { role: 'status' } }),
			),
		),
	);
}

/** Shows an action's outcome; a run action's button is disabled (the host refuses a second run anyway). */
export function applyActionStatus(root: ParentNode, p: ActionStatusParams): void {
	const article = Array.from(root.querySelectorAll<HTMLElement>('article.msg-assistant')).find(
		(a) => a.getAttribute('data-turn') === p.turnId,
	);
	const row = Array.from(article?.querySelectorAll<HTMLElement>('.proposal') ?? []).find(
		(r) => r.getAttribute('data-action-id') === p.actionId,
	);
	if (!row) return;
	const status = row.querySelector<HTMLElement>('.proposal-status');
	if (status) status.textContent = `${p.status}: ${p.message}`;
	row.setAttribute('data-status', p.status);
	const button = row.querySelector<HTMLButtonElement>('button.proposal-run');
	if (button) button.disabled = p.status === 'ran';
}
