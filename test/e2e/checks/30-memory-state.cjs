// "Inspect Memory State" panel: counts per tier after the core checks indexed the workspace, the
// thresholds table with rag_k = 6 from the e2e settings, and an export / import round trip
// driven through code-server's simple file dialogs (a typed path in the quick input).
const fs = require('fs');
const path = require('path');

const OUTER = 'iframe.webview[src*="extensionId=gated-memory.gated-memory"]';

/** The memory panel's inner frame (the chat view is another webview of the same extension). */
async function memoryPanel(page, timeout = 30000) {
	const deadline = Date.now() + timeout;
	while (Date.now() < deadline) {
		const n = await page.locator(OUTER).count();
		for (let i = 0; i < n; i++) {
			const frame = page.frameLocator(OUTER).nth(i).frameLocator('#active-frame');
			if (
				(await frame
					.locator('#memory-root')
					.count()
					.catch(() => 0)) > 0
			)
				return frame;
		}
		await page.waitForTimeout(300);
	}
	throw new Error('memory panel webview not found');
}

/** Types a full path into the simple file dialog (save or open) and accepts it. */
async function typePathInDialog(page, file) {
	const widget = page.locator('.quick-input-widget');
	const input = widget.locator('.quick-input-box input');
	await input.waitFor({ state: 'visible', timeout: 15000 });
	// The dialog fills in its starting folder asynchronously; typing before that is overwritten.
	await page.waitForFunction(
		() => document.querySelector('.quick-input-widget .quick-input-box input')?.value.startsWith('/'),
		null,
		{ timeout: 15000 },
	);
	await page.waitForTimeout(500);
	await input.fill(file);
	await page.waitForTimeout(500);
	const typed = await input.inputValue();
	if (typed !== file) throw new Error(`dialog path is "${typed}", not "${file}"`);
	// The accept button carries the dialog's label ("OK" for a save, the openLabel "Import" for an open).
	await widget
		.locator('.monaco-button', { hasText: /^(OK|Import|Export)$/ })
		.first()
		.click();
	await input.waitFor({ state: 'hidden', timeout: 15000 });
}

async function tierItems(panel, tier) {
	return Number(await panel.locator(`[data-tier-items="${tier}"]`).innerText());
}

async function run({ page, check, expect, OUT, runCommand }) {
	let panel;
	await check('memory panel: counts per tier after indexing, and its sections', async () => {
		await page.locator('.monaco-workbench .part.editor').click({ position: { x: 400, y: 300 } });
		await runCommand(page, 'Gated Memory: Inspect Memory State');
		panel = await memoryPanel(page);
		await panel.locator('#tiers table').waitFor({ timeout: 30000 });
		for (const tier of ['workspace', 'research', 'profile', 'conversation']) {
			expect((await panel.locator(`[data-tier-items="${tier}"]`).count()) === 1, `no ${tier} row`);
		}
		const chunks = await panel.locator('#index-stored').innerText();
		expect(/[1-9]\d* files, [1-9]\d* chunks/.test(chunks), `index stored: ${chunks}`);
		expect((await tierItems(panel, 'workspace')) > 0, 'workspace tier is empty after indexing');
		const engine = await panel.locator('#store dd').first().innerText();
		expect(/pglite/.test(engine), `engine: ${engine}`);
		const decisions = await panel.locator('#decisions tbody tr').count();
		expect(decisions > 0, 'no recent decisions listed');
	});

	await check('memory panel: thresholds table shows rag_k = 6 from settings', async () => {
		const value = panel.locator('[data-threshold="rag_k"]');
		expect((await value.innerText()).trim() === '6', `rag_k: ${await value.innerText()}`);
		const row = panel.locator('#thresholds tr', { has: panel.locator('[data-threshold="rag_k"]') });
		const text = await row.innerText();
		expect(/setting/.test(text), `rag_k row: ${text}`);
	});

	const file = path.join(OUT, `memory-export-${Date.now()}.json`);
	await check('memory panel: export to a JSON file through the save dialog', async () => {
		await panel.locator('#export').click();
		await typePathInDialog(page, file);
		await panel.locator('#notice', { hasText: 'Exported' }).waitFor({ timeout: 30000 });
		const data = JSON.parse(fs.readFileSync(file, 'utf8'));
		expect(
			data.format === 'gated-memory-export' && data.version === 1 && data.vectors === false,
			'not a version 1 export',
		);
		expect(
			data.documents.some((d) => d.tier === 'workspace' && d.chunks.length > 0),
			'no workspace documents exported',
		);
	});

	await check('memory panel: importing the export back is idempotent', async () => {
		const before = await tierItems(panel, 'workspace');
		await panel.locator('#import').click();
		await typePathInDialog(page, file);
		await panel.locator('#notice', { hasText: 'Imported' }).waitFor({ timeout: 30000 });
		await panel.locator('#loading').waitFor({ state: 'hidden', timeout: 30000 });
		const after = await tierItems(panel, 'workspace');
		expect(after === before, `workspace items ${before} → ${after}`);
	});
	await page.screenshot({ path: path.join(OUT, 'memory-state.png') });
	// Later checks locate the chat webview by extension id: leave only that one open.
	await runCommand(page, 'View: Close Editor');
	await page
		.locator('.tabs-container .tab', { hasText: 'Memory State' })
		.waitFor({ state: 'detached', timeout: 15000 });
}

/**
 * Opens Inspect Memory State, waits for its memory list, returns what `read(panel)` returns and
 * closes the panel again (waiting for its tab to go).
 */
async function readMemoryPanel(page, runCommand, read) {
	await page.locator('.monaco-workbench .part.editor').click({ position: { x: 400, y: 300 } });
	await runCommand(page, 'Gated Memory: Inspect Memory State');
	const panel = await memoryPanel(page);
	await panel.locator('#memories').waitFor({ timeout: 30000 });
	const out = await read(panel);
	await runCommand(page, 'View: Close Editor');
	await page
		.locator('.tabs-container .tab', { hasText: 'Memory State' })
		.waitFor({ state: 'detached', timeout: 15000 });
	return out;
}

module.exports = { run, memoryPanel, readMemoryPanel };
