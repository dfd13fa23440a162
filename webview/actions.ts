/**
 * One click handler for the whole transcript: every button and citation link carries a
 * `data-action`, and this turns it into a message to the host. Links in replies never navigate
 * the webview: a citation is an `<a>` without href (handled here); http(s)/mailto links, the only
 * ones the sanitiser keeps, are left to VS Code's webview, which opens them outside after its
 * link-protection prompt.
 */
import type { RetrievalOverride } from '../src/core/protocol';
import { codeOf } from './codeBlocks';
import { menuKeyEffect } from './menuKeys';
import type { WebviewMessenger } from './messenger';

/** What the handler needs besides the messenger. */
export interface ActionDeps {
	messenger: WebviewMessenger;
	newTurnId(): string;
	/** The trace JSON of a reply (for "Copy trace JSON"), or null. */
	traceJson(turnId: string): string | null;
}

function closeMenus(root: ParentNode, except?: Element | null): void {
	for (const menu of Array.from(root.querySelectorAll<HTMLElement>('.retry-menu .menu'))) {
		if (menu === except) continue;
		menu.hidden = true;
		menu.parentElement?.querySelector('[data-action="retry-menu"]')?.setAttribute('aria-expanded', 'false');
	}
}

function menuItems(menu: Element): HTMLElement[] {
	return Array.from(menu.querySelectorAll<HTMLElement>('[role="menuitem"]'));
}

/**
 * Keys in a retry menu (menuKeys.ts): arrows, Home and End move between the items (ArrowDown /
 * ArrowUp on the button open the menu at the first / last item), Escape closes it back to the
 * button, Tab closes it and moves on from the button. True when the key was the menu's.
 */
function menuKeydown(e: KeyboardEvent, root: ParentNode): boolean {
	if (e.isComposing || e.altKey || e.ctrlKey || e.metaKey) return false;
	const from = e.target instanceof HTMLElement ? e.target : null;
	const wrap = from?.closest('div.retry-menu'); // (the button has the class retry-menu too)
	const button = wrap?.querySelector<HTMLElement>('[data-action="retry-menu"]');
	const menu = wrap?.querySelector<HTMLElement>('.menu');
	if (!from || !button || !menu) return false;
	const onButton = from === button;
	// On the button, Enter and Space click it; Escape is main.ts's (closes any open menu).
	if (onButton ? e.key !== 'ArrowDown' && e.key !== 'ArrowUp' : menu.hidden) return false;
	const items = menuItems(menu);
	const effect = menuKeyEffect(e.key, onButton ? -1 : items.indexOf(from), items.length);
	if (!effect) return false;
	if (effect.kind === 'focus') {
		e.preventDefault();
		if (menu.hidden) {
			closeMenus(root);
			menu.hidden = false;
			button.setAttribute('aria-expanded', 'true');
		}
		items[effect.index]?.focus();
		return true;
	}
	closeMenus(root);
	button.focus();
	if (effect.kind === 'close') {
		e.preventDefault();
		e.stopPropagation(); // handled: Escape must not also stop a streaming reply
	}
	return true;
}

function retrievalOf(node: Element): RetrievalOverride {
	const r = node.getAttribute('data-retrieval');
	return r === 'force' || r === 'skip' ? r : 'auto';
}

/** Flashes "Copied" on a button for a moment (the copy itself happens in the host). */
function acknowledge(button: Element, text: string): void {
	const original = button.textContent;
	button.textContent = text;
	setTimeout(() => (button.textContent = original), 1200);
}

/** Performs the action of `target` (an element with `data-action`). */
export function runAction(target: Element, root: ParentNode, deps: ActionDeps): void {
	const { messenger } = deps;
	const article = target.closest('article');
	const turnId = article?.getAttribute('data-turn') ?? '';
	const action = target.getAttribute('data-action');
	if (action !== 'retry-menu') {
		closeMenus(root);
		// An item of a (now hidden) retry menu hands focus back to the menu's button.
		if (target.getAttribute('role') === 'menuitem')
			target.closest('div.retry-menu')?.querySelector<HTMLElement>('[data-action="retry-menu"]')?.focus();
	}
	switch (action) {
		case 'code-copy':
		case 'code-insert':
		case 'code-newfile': {
			const block = codeOf(target);
			if (!block) return;
			if (action === 'code-copy') {
				messenger.send('code/copy', { code: block.code });
				acknowledge(target, 'Copied');
			} else if (action === 'code-insert') messenger.send('code/insert', { code: block.code });
			else messenger.send('code/newFile', { code: block.code, language: block.language });
			return;
		}
		case 'citation-open': {
			const uri = target.getAttribute('data-uri');
			if (!uri) return;
			const line = (name: string) => {
				const v = target.getAttribute(name);
				return v === null || v === '' ? null : Number(v);
			};
			messenger.send('citation/open', { uri, startLine: line('data-start'), endLine: line('data-end') });
			return;
		}
		case 'retry-menu': {
			const menu = target.parentElement?.querySelector<HTMLElement>('.menu');
			if (!menu) return;
			closeMenus(root, menu);
			menu.hidden = !menu.hidden;
			target.setAttribute('aria-expanded', String(!menu.hidden));
			if (!menu.hidden) menuItems(menu)[0]?.focus();
			return;
		}
		case 'retry': {
			const original = article?.getAttribute('data-retry-target');
			if (original)
				messenger.send('chat/retry', { turnId: original, newTurnId: deps.newTurnId(), retrieval: retrievalOf(target) });
			return;
		}
		case 'copy-trace': {
			const json = deps.traceJson(turnId);
			if (json === null) return;
			messenger.send('code/copy', { code: json });
			acknowledge(target, 'Copied');
			return;
		}
		case 'stop':
			messenger.send('chat/stop', { turnId });
			return;
		case 'run-proposed': {
			// Ids only: the host looks the action up and runs it (after its own confirmation when needed).
			const actionId = target.getAttribute('data-action-id');
			if (!actionId || (target as HTMLButtonElement).disabled) return;
			messenger.send('action/run', { turnId, actionId });
			return;
		}
	}
}

/** Wires clicks (and Enter/Space on citation links, the retry menus' keys) in `root`. */
export function wireActions(root: HTMLElement, deps: ActionDeps): void {
	root.addEventListener('click', (e) => {
		const target = (e.target as Element | null)?.closest('[data-action]');
		if (!target || !root.contains(target)) {
			closeMenus(root);
			return;
		}
		e.preventDefault();
		runAction(target, root, deps);
	});
	root.addEventListener('keydown', (e) => {
		if (menuKeydown(e, root)) return;
		const target = (e.target as Element | null)?.closest('a[data-action]');
		if (target && (e.key === 'Enter' || e.key === ' ')) {
			e.preventDefault();
			runAction(target, root, deps);
		}
	});
}

/** Closes open retry menus; true when one was open (so Escape does nothing else). */
export function closeOpenMenus(root: ParentNode): boolean {
	const open = Array.from(root.querySelectorAll<HTMLElement>('.retry-menu .menu')).some((m) => !m.hidden);
	closeMenus(root);
	return open;
}
