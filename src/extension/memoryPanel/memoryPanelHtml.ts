/**
 * The memory panel's page: the shared webview shell (strict CSP, see webviewPage.ts) around the
 * static skeleton that webview/memory/main.ts fills with text nodes.
 */

import { webviewPage, type WebviewAssets } from '../chat/webviewPage';

/** The page for the memory panel. */
export function renderMemoryPanelHtml(opts: WebviewAssets): string {
	return webviewPage(
		opts,
		'Gated Memory: Memory State',
		`<header>
	<h1>Memory state</h1>
	<span id="generated" aria-live="polite"></span>
	<span class="spacer"></span>
	<vscode-button id="refresh" secondary title="Read the memory state again" aria-label="Refresh">Refresh</vscode-button>
	<vscode-button id="export" secondary disabled title="Save this workspace's memory to a JSON file" aria-label="Export memory">Export…</vscode-button>
	<vscode-button id="import" secondary disabled title="Load memory from an exported JSON file" aria-label="Import memory">Import…</vscode-button>
</header>
<div id="loading" role="status"><vscode-progress-ring></vscode-progress-ring><span id="loading-text">Opening the memory store…</span></div>
<p id="notice" class="notice" hidden></p>
<main id="memory-root" aria-label="Memory state"></main>`,
	);
}
