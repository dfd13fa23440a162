// Instruction files: the workspace's AGENTS.md (written by run.sh, two sections) is read as standing
// instructions when the store first opens and shows in Inspect Memory State, one profile row per
// section keyed by its source file, kind "instruction".
const { memoryPanel } = require('./30-memory-state.cjs');

async function run({ page, check, expect, runCommand }) {
	await check(
		'AGENTS.md shows in Inspect Memory State: one instruction per section, with its source file',
		async () => {
			await page.locator('.monaco-workbench .part.editor').click({ position: { x: 400, y: 300 } });
			await runCommand(page, 'Gated Memory: Inspect Memory State');
			const panel = await memoryPanel(page);
			const table = panel.locator('#profile table');
			await table.waitFor({ timeout: 30000 });
			const rows = await table.locator('tbody tr').allInnerTexts();
			const ours = rows.filter((r) => r.includes('file:AGENTS.md § '));
			expect(ours.length === 2, `AGENTS.md rows: ${JSON.stringify(ours)} of ${JSON.stringify(rows)}`);
			expect(
				ours.some((r) => /file:AGENTS\.md § Testing\s+instruction\s+Run npm test before committing/.test(r)),
				`rows: ${JSON.stringify(ours)}`,
			);
			expect(
				ours.some((r) => /file:AGENTS\.md § Backoff policy\s+instruction\s+When explaining retry code/.test(r)),
				`rows: ${JSON.stringify(ours)}`,
			);
			await runCommand(page, 'View: Close Editor');
			await page
				.locator('.tabs-container .tab', { hasText: 'Memory State' })
				.waitFor({ state: 'detached', timeout: 15000 });
		},
	);
}

module.exports = { run };
