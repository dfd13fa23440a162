// Staleness in the real workbench (#19): "Gated Memory: Remember Selection…" on a function of the
// indexed workspace stores a research memory anchored to its file and lines; after the cited code
// changes on disk (the watcher re-indexes it), Inspect Memory State lists the memory as stale with
// Keep / Update… / Forget. The file is restored afterwards.
const fs = require('fs');
const path = require('path');
const { memoryPanel } = require('./30-memory-state.cjs');

const NOTE = 'retryWithBackoff waits 100 ms times 2^attempt between attempts (e2e note).';

async function run({ page, check, expect, OUT, WS_DIR, runCommand }) {
	const file = path.join(WS_DIR, 'src', 'retry.ts');
	const original = fs.readFileSync(file, 'utf8');
	try {
		await check('Remember Selection… stores a research memory anchored to the selected function', async () => {
			await page.locator('.monaco-workbench .part.editor').click({ position: { x: 400, y: 300 } });
			await page.keyboard.press('Control+P');
			const input = page.locator('.quick-input-widget .quick-input-box input');
			await input.waitFor({ state: 'visible', timeout: 10000 });
			await input.pressSequentially('retry.ts', { delay: 5 });
			await page
				.locator('.quick-input-widget .monaco-list-row', { hasText: 'retry.ts' })
				.first()
				.click({ timeout: 10000 });
			await page.locator('.tabs-container .tab.active', { hasText: 'retry.ts' }).waitFor({ timeout: 10000 });
			await page.locator('.part.editor .monaco-editor .view-lines').click();
			await page.keyboard.press('Control+A');
			await runCommand(page, 'Gated Memory: Remember Selection…');
			await input.waitFor({ state: 'visible', timeout: 10000 });
			const title = await page.locator('.quick-input-widget .quick-input-title').innerText();
			expect(/from src\/retry\.ts:1-10/.test(title), `input title: ${title}`);
			await input.fill(NOTE);
			await input.press('Enter');
			await page
				.locator('.quick-input-widget .monaco-list-row', { hasText: 'Research memory' })
				.first()
				.click({ timeout: 10000 });
			const toast = page.locator('.notifications-toasts', {
				hasText: /anchored to src\/retry\.ts:\d+-\d+ \(retryWithBackoff\)/,
			});
			await toast.waitFor({ timeout: 30000 });
		});

		await check(
			'after the cited function changes, Inspect Memory State flags the memory as stale (Keep / Update / Forget)',
			async () => {
				fs.writeFileSync(file, original.replace('100 * 2 ** i', '250 * 2 ** i'));
				await page.waitForTimeout(4000); // the watcher's debounced re-index
				await runCommand(page, 'View: Close All Editors');
				await page.locator('.monaco-workbench .part.editor').click({ position: { x: 400, y: 300 } });
				await runCommand(page, 'Gated Memory: Inspect Memory State');
				const panel = await memoryPanel(page);
				const stale = panel.locator('#stale');
				await stale.waitFor({ timeout: 30000 });
				const deadline = Date.now() + 30000;
				let text = await stale.innerText();
				while (!text.includes('e2e note') && Date.now() < deadline) {
					await page.waitForTimeout(1500);
					await panel.locator('#refresh').click();
					await panel
						.locator('#loading')
						.waitFor({ state: 'hidden', timeout: 15000 })
						.catch(() => undefined);
					text = await stale.innerText();
				}
				expect(text.includes('e2e note'), `stale section: ${text.slice(0, 300)}`);
				expect(/src\/retry\.ts:\d+-\d+ \(retryWithBackoff\)/.test(text), `cites: ${text.slice(0, 300)}`);
				for (const label of ['Keep', 'Update…', 'Forget']) expect(text.includes(label), `no ${label} button`);
				await page.screenshot({ path: path.join(OUT, 'memory-stale.png') });
				await runCommand(page, 'View: Close Editor');
				await page
					.locator('.tabs-container .tab', { hasText: 'Memory State' })
					.waitFor({ state: 'detached', timeout: 15000 });
			},
		);
	} finally {
		fs.writeFileSync(file, original);
		await page.waitForTimeout(1500);
	}
}

module.exports = { run };
