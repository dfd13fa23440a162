/**
 * The "Inspect Memory State" panel's script: asks the host for the state, shows a loading state
 * until it arrives (the first store open can take seconds), renders each section from the
 * state, and turns button clicks into protocol messages. In Restricted Mode every action is
 * disabled and a banner says why; the host refuses them too.
 */
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-progress-ring/index.js';
import type { MemoryPanelState } from '../../src/core/memoryPanelProtocol';
import { el } from '../dom';
import { vscodeApi } from '../vscodeApi';
import './memory.css';
import { createMemoryMessenger, type MemoryMessenger } from './messenger';
import {
	correctionsSection,
	decisionsSection,
	indexSection,
	memoriesSection,
	pendingSection,
	staleSection,
	demotedSection,
	profileSection,
	storeSection,
	thresholdsSection,
	tiersSection,
	type PanelAction,
} from './sections';

function required(id: string): HTMLElement {
	const node = document.getElementById(id);
	if (!node) throw new Error(`Gated Memory memory panel: missing #${id}`);
	return node;
}

function render(root: HTMLElement, s: MemoryPanelState, messenger: MemoryMessenger): void {
	const enabled = !s.restricted && s.store !== null;
	const act = (a: PanelAction) =>
		a.kind === 'clear'
			? messenger.send('memory/clearTier', { tier: a.tier })
			: messenger.send('memory/forget', a.target);
	const banner = s.restricted
		? el('p', {
				className: 'banner',
				attrs: { id: 'restricted', role: 'note' },
				text: 'Restricted Mode: read-only, and stored memory is not read (the settings of a workspace you have not trusted could point the store elsewhere). Trust this workspace to see the stored tiers and to forget, clear, export or import memory.',
			})
		: null;
	const error = s.storeError
		? el('p', {
				className: 'banner error',
				attrs: { role: 'alert' },
				text: `The store could not be opened: ${s.storeError}`,
			})
		: null;
	root.replaceChildren(
		...[banner, error].filter((n): n is HTMLParagraphElement => n !== null),
		tiersSection(s, enabled, act),
		pendingSection(s),
		staleSection(s, enabled, (m, action) =>
			messenger.send('memory/reviewStale', { workspaceId: m.workspaceId, docId: m.docId, action }),
		),
		demotedSection(s, enabled, (m, action) =>
			messenger.send('memory/reviewStale', { workspaceId: m.workspaceId, docId: m.docId, action }),
		),
		profileSection(s, enabled, act),
		correctionsSection(s),
		memoriesSection(s, enabled, act, (workspaceId, turnId) =>
			messenger.send('memory/openTurn', { workspaceId, turnId }),
		),
		decisionsSection(s),
		indexSection(s, enabled, act),
		storeSection(s),
		thresholdsSection(s),
	);
	required('generated').textContent =
		`${s.workspaceFolders} workspace folder${s.workspaceFolders === 1 ? '' : 's'} · read ${new Date(s.generatedAt).toLocaleTimeString()}`;
	for (const id of ['export', 'import']) required(id).toggleAttribute('disabled', !enabled);
}

function main(): void {
	const messenger = createMemoryMessenger(vscodeApi());
	const root = required('memory-root');
	const loading = required('loading');
	const loadingText = required('loading-text');
	const notice = required('notice');
	const busy = (message: string | null) => {
		loading.hidden = message === null;
		if (message !== null) loadingText.textContent = message;
	};
	const click = (id: string, run: () => void) =>
		required(id).addEventListener('click', (e) => {
			if (!(e.currentTarget as HTMLElement).hasAttribute('disabled')) run();
		});

	click('refresh', () => messenger.send('memory/refresh', {}));
	click('export', () => messenger.send('memory/export', {}));
	click('import', () => messenger.send('memory/import', {}));

	messenger.on('memory/loading', (p) => busy(p.message));
	messenger.on('memory/state', (s) => {
		busy(null);
		render(root, s, messenger);
	});
	messenger.on('memory/notice', (p) => {
		notice.hidden = false;
		notice.className = `notice ${p.level}`;
		notice.setAttribute('role', p.level === 'error' ? 'alert' : 'status');
		notice.textContent = p.message;
	});
	messenger.send('memory/ready', {});
}

main();
