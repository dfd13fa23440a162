// Workbench helpers for e2e.cjs: command palette, panel input, sidebar width, colour theme and a
// contrast probe that runs inside the webview. Selectors verified on code-server 4.100.3 (VS Code 1.100.3).

/** F1 opens the command palette with '>' typed; pick the row with `label`. */
async function runCommand(page, label) {
	await page.keyboard.press('F1');
	const input = page.locator('.quick-input-widget .quick-input-box input');
	await input.waitFor({ state: 'visible', timeout: 10000 });
	await input.pressSequentially(label, { delay: 5 });
	// Click the row whose text starts with the label: Enter would take the top-ranked row, which
	// for "Preferences: Color Theme" is "Preferences: Browse Color Themes in Marketplace".
	const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
	await page
		.locator('.quick-input-widget .monaco-list-row', { hasText: new RegExp(`^${escaped}`) })
		.first()
		.click({ timeout: 10000 });
}

/** Types a message in the panel's textarea (inside vscode-textarea's shadow root) and presses Enter. */
async function send(web, text) {
	const box = web.locator('#input textarea');
	await box.click();
	await box.fill(text);
	await box.press('Enter');
}

/** Drags the sidebar's sash so the panel is `width` px wide (the default is narrow for screenshots). */
async function widenSidebar(page, sidebar, width) {
	const box = await sidebar.boundingBox();
	if (!box) return;
	const y = box.y + box.height / 2;
	await page.mouse.move(box.x + box.width + 1, y);
	await page.mouse.down();
	await page.mouse.move(box.x + width, y, { steps: 8 });
	await page.mouse.up();
}

/** Switches the colour theme through the command palette's theme picker, as a user would. */
async function setTheme(page, theme) {
	// Keys typed while the webview has focus stay in the webview: focus the editor area first.
	await page.locator('.monaco-workbench .part.editor').click({ position: { x: 200, y: 200 } });
	await runCommand(page, 'Preferences: Color Theme');
	const input = page.locator('.quick-input-widget .quick-input-box input');
	// Rows show theme labels ("Dark Modern"), not the setting ids ("Default Dark Modern").
	await input.fill(theme);
	await page.locator('.quick-input-widget .monaco-list-row', { hasText: theme }).first().click({ timeout: 10000 });
	const cls = theme.includes('High Contrast') ? 'hc-black' : theme.includes('Light') ? 'vs' : 'vs-dark';
	await page.waitForFunction((c) => document.querySelector('.monaco-workbench')?.classList.contains(c), cls, {
		timeout: 10000,
	});
	await page.waitForTimeout(600); // the webview receives the new theme variables asynchronously
}

/** Runs in the webview: WCAG contrast of each selector's text against its nearest opaque background. */
function contrastRatios(_body, selectors) {
	// rgb()/rgba() give 0-255 channels; color(srgb …) (e.g. a computed color-mix()) gives 0-1.
	const rgb = (c) => {
		const n = (c.match(/[\d.]+/g) || []).map(Number);
		return /^color\(srgb /.test(c) ? n.map((v, i) => (i < 3 ? v * 255 : v)) : n;
	};
	const lum = ([r, g, b]) => {
		const f = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4));
		return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
	};
	const background = (el) => {
		for (let n = el; n; n = n.parentElement || (n.getRootNode() && n.getRootNode().host)) {
			const c = rgb(getComputedStyle(n).backgroundColor);
			if (c.length === 3 || (c.length === 4 && c[3] > 0.9)) return c;
		}
		return rgb(getComputedStyle(document.documentElement).backgroundColor);
	};
	const out = {};
	for (const sel of selectors) {
		const el = document.querySelector(sel);
		if (!el) continue;
		const [a, b] = [lum(rgb(getComputedStyle(el).color)), lum(background(el))].sort((x, y) => y - x);
		out[sel] = +((a + 0.05) / (b + 0.05)).toFixed(2);
	}
	return out;
}

async function lastReply(web, count, timeout = 15000) {
	const replies = web.locator('article.msg-assistant');
	await replies.nth(count - 1).waitFor({ timeout });
	return replies.nth(count - 1);
}

module.exports = { runCommand, send, widenSidebar, setTheme, contrastRatios, lastReply };
