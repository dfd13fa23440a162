/**
 * The memory panel's page: a strict CSP (`default-src 'none'`, one nonce'd script, styles and
 * fonts only from the extension), the stylesheet and script esbuild writes for
 * webview/memory/main.ts, and a static skeleton the script fills with text nodes.
 */

/** The page for the memory panel. */
export function renderMemoryPanelHtml(opts: { cspSource: string; nonce: string; scriptUri: string; styleUri: string }): string {
	const csp = ["default-src 'none'", `style-src ${opts.cspSource}`, `font-src ${opts.cspSource}`, `script-src 'nonce-${opts.nonce}'`].join('; ');
	return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${opts.styleUri}">
<title>Gated Memory: Memory State</title>
</head>
<body>
<header>
	<h1>Memory state</h1>
	<span id="generated" aria-live="polite"></span>
	<span class="spacer"></span>
	<vscode-button id="refresh" secondary title="Read the memory state again" aria-label="Refresh">Refresh</vscode-button>
	<vscode-button id="export" secondary disabled title="Save this workspace's memory to a JSON file" aria-label="Export memory">Export…</vscode-button>
	<vscode-button id="import" secondary disabled title="Load memory from an exported JSON file" aria-label="Import memory">Import…</vscode-button>
</header>
<div id="loading" role="status"><vscode-progress-ring></vscode-progress-ring><span id="loading-text">Opening the memory store…</span></div>
<p id="notice" class="notice" hidden></p>
<main id="memory-root" aria-label="Memory state"></main>
<script nonce="${opts.nonce}" src="${opts.scriptUri}"></script>
</body>
</html>`;
}
