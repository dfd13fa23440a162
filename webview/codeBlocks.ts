/**
 * A toolbar on every code block of a reply: Copy, Insert at cursor, New file. The buttons only
 * carry a `data-action`; the transcript's one click handler (actions.ts) reads the code from the
 * block and asks the host, which owns the clipboard and the editors.
 */
import { el } from './dom';

/** The fence language markdown-it put on `<code class="language-ts">`, or null. */
export function fenceLanguage(className: string): string | null {
	const m = /(?:^|\s)language-([^\s]+)/.exec(className);
	return m ? m[1] : null;
}

function action(name: string, label: string, text: string): HTMLButtonElement {
	return el(
		'button',
		{
			className: `code-action code-${name}`,
			attrs: { type: 'button', 'data-action': `code-${name}`, 'aria-label': label, title: label },
		},
		text,
	);
}

/** Wraps each `pre` of `root` (not already wrapped) with a toolbar. */
export function addCodeToolbars(root: ParentNode): void {
	for (const pre of Array.from(root.querySelectorAll('pre'))) {
		if (pre.parentElement?.classList.contains('code-block')) continue;
		const language = fenceLanguage(pre.querySelector('code')?.className ?? '');
		const block = el('div', { className: 'code-block', attrs: language ? { 'data-language': language } : {} });
		pre.replaceWith(block);
		block.append(
			el(
				'div',
				{
					className: 'code-toolbar',
					attrs: { role: 'toolbar', 'aria-label': `Code block${language ? ` (${language})` : ''} actions` },
				},
				el('span', { className: 'code-lang' }, language ?? ''),
				action('copy', 'Copy code', 'Copy'),
				action('insert', 'Insert code at the cursor', 'Insert'),
				action('newfile', 'Open code in a new file', 'New file'),
			),
			pre,
		);
	}
}

/** The code of the block an action button belongs to, and its fence language. */
export function codeOf(button: Element): { code: string; language: string | null } | null {
	const block = button.closest('.code-block');
	const code = block?.querySelector('pre code') ?? block?.querySelector('pre');
	if (!block || !code) return null;
	return { code: code.textContent ?? '', language: block.getAttribute('data-language') };
}
