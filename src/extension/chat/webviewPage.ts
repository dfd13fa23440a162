/**
 * The one HTML shell every Gated Memory webview uses: a strict CSP (`default-src 'none'`, a single
 * nonce'd script, styles and fonts only from the extension), the stylesheet, the page's static
 * skeleton, and the bundle. Pure (no `vscode`), so the CSP is unit-tested.
 */

/** What a page needs: the webview's CSP source, a fresh nonce and the two asset URIs. */
export interface WebviewAssets {
	cspSource: string;
	nonce: string;
	scriptUri: string;
	styleUri: string;
}

/** The whole document around `body` (static markup the script fills with text nodes). */
export function webviewPage(assets: WebviewAssets, title: string, body: string): string {
	const csp = [
		"default-src 'none'",
		`style-src ${assets.cspSource}`,
		`font-src ${assets.cspSource}`,
		`script-src 'nonce-${assets.nonce}'`,
	].join('; ');
	return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${assets.styleUri}">
<title>${title}</title>
</head>
<body>
${body}
<script nonce="${assets.nonce}" src="${assets.scriptUri}"></script>
</body>
</html>`;
}
