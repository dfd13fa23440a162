/**
 * One assistant entry's DOM: the reply (sanitised Markdown with highlighted code blocks, their
 * toolbars and citation links), its status, its decision trace and its action row; or, while it
 * streams, the text so far with a progress line and a Stop button.
 *
 * Class names the e2e relies on: a finished reply is `article.msg-assistant`; one streaming is
 * `article.msg-streaming` (with `vscode-button.stop`); one cut off by a reload is
 * `article.msg-assistant.msg-interrupted`. Buttons carry `data-action` for actions.ts.
 */
import type { Citation, TranscriptEntry } from '../src/core/protocol';
import { linkCitations } from './citations';
import { addCodeToolbars } from './codeBlocks';
import { el } from './dom';
import { renderMarkdown } from './markdown';
import { proposedActionsNode } from './proposedActions';
import type { StreamingEntry } from './state';
import { renderTrace } from './traceView';

type AssistantEntry = Extract<TranscriptEntry, { kind: 'assistant' }>;

/** Reply Markdown → sanitised DOM with code toolbars and citation links, into `body`. */
export function fillReplyBody(body: HTMLElement, markdown: string, citations?: readonly Citation[]): void {
	const fragment = renderMarkdown(markdown);
	addCodeToolbars(fragment);
	linkCitations(fragment, citations);
	body.replaceChildren(fragment);
}

/** The user turn a retry answers again: a retry of a retry still re-answers the original message. */
export function retryTarget(entry: { turnId: string; retryOf?: string }): string {
	return entry.retryOf ?? entry.turnId;
}

const RETRIEVAL_WORDS = { auto: '', force: 'retrieval forced', skip: 'retrieval skipped' } as const;

/** "retry · retrieval forced", "retry", or '' for an ordinary reply. */
export function retryNote(entry: { retryOf?: string; retrieval?: keyof typeof RETRIEVAL_WORDS }): string {
	if (!entry.retryOf) return entry.retrieval && entry.retrieval !== 'auto' ? RETRIEVAL_WORDS[entry.retrieval] : '';
	const how = entry.retrieval ? RETRIEVAL_WORDS[entry.retrieval] : '';
	return how ? `retry · ${how}` : 'retry';
}

function author(generator: string | undefined, ...badges: (string | null)[]): HTMLElement {
	return el(
		'div',
		{ className: 'msg-author' },
		el('span', {}, 'Gated Memory'),
		generator ? el('span', { className: 'msg-generator' }, generator) : null,
		...badges
			.filter((b): b is string => !!b)
			.map((b) => el('vscode-badge', { className: `msg-status msg-status-${b.split(' ')[0]}` }, b)),
	);
}

function actionButton(
	action: string,
	label: string,
	text: string,
	attrs: Record<string, string> = {},
): HTMLButtonElement {
	return el(
		'button',
		{
			className: `msg-action ${action}`,
			attrs: { type: 'button', 'data-action': action, 'aria-label': label, title: label, ...attrs },
		},
		text,
	);
}

function retryMenu(): HTMLElement {
	const item = (retrieval: string, text: string) =>
		el(
			'button',
			{
				className: 'menu-item',
				attrs: {
					type: 'button',
					role: 'menuitem',
					tabindex: '-1',
					'data-action': 'retry',
					'data-retrieval': retrieval,
				},
			},
			text,
		);
	return el(
		'div',
		{ className: 'retry-menu' },
		actionButton('retry-menu', 'Retry options', 'Retry ▾', { 'aria-haspopup': 'menu', 'aria-expanded': 'false' }),
		el(
			'div',
			{ className: 'menu', attrs: { role: 'menu', 'aria-label': 'Retry', hidden: '' } },
			item('auto', 'Retry'),
			item('force', 'Retry with retrieval forced'),
			item('skip', 'Retry with retrieval skipped'),
		),
	);
}

/** A finished reply. */
export function assistantNode(entry: AssistantEntry, tracesOpen: boolean): HTMLElement {
	const body = el('div', { className: 'msg-markdown' });
	fillReplyBody(body, entry.markdown, entry.citations);
	return el(
		'article',
		{
			className: 'msg msg-assistant',
			attrs: {
				'data-turn': entry.turnId,
				'data-retry-target': retryTarget(entry),
				'aria-label': 'Gated Memory replied',
			},
		},
		author(entry.generator, entry.status === 'stopped' ? 'stopped' : null, retryNote(entry) || null),
		body,
		entry.actions?.length ? proposedActionsNode(entry.actions) : null,
		entry.trace ? renderTrace(entry.trace, tracesOpen) : null,
		el(
			'div',
			{ className: 'msg-actions', attrs: { role: 'group', 'aria-label': 'Reply actions' } },
			retryMenu(),
			entry.trace ? actionButton('copy-trace', 'Copy trace JSON', 'Copy trace JSON') : null,
		),
	);
}

/** A reply streaming in (Stop button, progress line), or one a reload cut off (Retry button). */
export function streamingNode(entry: StreamingEntry): HTMLElement {
	const body = el('div', { className: 'msg-markdown' });
	fillReplyBody(body, entry.markdown);
	const target = retryTarget(entry);
	if (entry.interrupted) {
		return el(
			'article',
			{
				className: 'msg msg-assistant msg-interrupted',
				attrs: {
					'data-turn': entry.turnId,
					'data-retry-target': target,
					'aria-label': 'Gated Memory reply, interrupted',
				},
			},
			author(entry.generator, 'interrupted'),
			body,
			el(
				'div',
				{ className: 'msg-actions' },
				el(
					'vscode-button',
					{
						className: 'retry',
						attrs: {
							'data-action': 'retry',
							'data-retrieval': 'auto',
							'aria-label': 'Retry this reply',
							secondary: '',
						},
					},
					'Retry',
				),
			),
		);
	}
	return el(
		'article',
		{
			className: 'msg msg-streaming',
			attrs: { 'data-turn': entry.turnId, 'aria-label': 'Gated Memory is replying', 'aria-busy': 'true' },
		},
		author(entry.generator, entry.retryOf ? 'retry' : null),
		el(
			'div',
			{ className: 'msg-progress', attrs: { role: 'status' } },
			entry.progress || (entry.markdown ? '' : 'Thinking…'),
		),
		body,
		el(
			'div',
			{ className: 'msg-actions' },
			el(
				'vscode-button',
				{
					className: 'stop',
					attrs: {
						'data-action': 'stop',
						'aria-label': 'Stop generating',
						title: 'Stop generating (Escape)',
						secondary: '',
					},
				},
				'Stop',
			),
		),
	);
}

/** Updates a streaming node in place (text and progress), cheaper than rebuilding it. */
export function updateStreamingNode(node: HTMLElement, entry: StreamingEntry): void {
	const body = node.querySelector<HTMLElement>('.msg-markdown');
	if (body) fillReplyBody(body, entry.markdown);
	const progress = node.querySelector<HTMLElement>('.msg-progress');
	if (progress) progress.textContent = entry.progress;
}
