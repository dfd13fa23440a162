// gatedMemory.memory.writes: confirm (#19) in the real workbench: a correction shows a "Remember
// this?" chip under its reply; nothing is in research memory until Approve (Inspect Memory State
// lists it as awaiting approval instead); Edit stores the edited text; Discard stores nothing and
// the reply's trace says so. The workspace setting is restored afterwards.
const fs = require('fs');
const path = require('path');
const { readMemoryPanel } = require('./30-memory-state.cjs');

const A = 'Correction: releases are tagged from the main branch, not from develop.';
const B = 'Correction: the staging cluster runs in eu-west-1, not us-east-1.';
const B_EDITED = 'Staging runs in eu-west-1 (Ireland); us-east-1 is only the DR copy.';
const C = 'Correction: the nightly job runs at 02:00 UTC, not at midnight.';

async function run({ page, web, check, expect, OUT, WS_DIR, runCommand, send }) {
	const settingsFile = path.join(WS_DIR, '.vscode', 'settings.json');
	const original = fs.existsSync(settingsFile) ? fs.readFileSync(settingsFile, 'utf8') : null;
	const replies = web.locator('article.msg-assistant');
	const chipOf = (reply) => reply.locator('div.memory-chip');

	/** Sends a correction and returns its reply once the chip is under it. */
	async function correct(text) {
		const before = await replies.count();
		await send(web, text);
		await replies.nth(before).waitFor({ timeout: 30000 });
		const reply = replies.nth(before);
		await chipOf(reply).waitFor({ timeout: 30000 });
		return reply;
	}

	/** Opens Inspect Memory State, returns the text of two sections, closes it again. */
	const panelText = () =>
		readMemoryPanel(page, runCommand, async (panel) => ({
			memories: await panel.locator('#memories').innerText(),
			pending: await panel.locator('#pending').innerText(),
		}));

	try {
		const settings = original ? JSON.parse(original) : {};
		settings['gatedMemory.memory.writes'] = 'confirm';
		fs.mkdirSync(path.dirname(settingsFile), { recursive: true });
		fs.writeFileSync(settingsFile, JSON.stringify(settings, null, 2));
		// The setting is read when the reply is persisted; give the file watcher time to see it.
		await page.waitForTimeout(2500);
		await runCommand(page, 'Gated Memory: New Conversation');
		await web
			.locator('article.msg')
			.first()
			.waitFor({ state: 'detached', timeout: 10000 })
			.catch(() => undefined);

		let replyA;
		await check('confirm mode: a correction shows a "Remember this?" chip with Approve / Edit / Discard', async () => {
			replyA = await correct(A);
			const chip = chipOf(replyA);
			expect(
				(await chip.getAttribute('data-state')) === 'pending',
				`chip state: ${await chip.getAttribute('data-state')}`,
			);
			const text = await chip.innerText();
			expect(/Remember this\?/.test(text) && /correction → research memory/.test(text), `chip: ${text}`);
			expect(text.includes(A), `chip text: ${text}`);
			for (const action of ['approve', 'edit', 'discard'])
				expect((await chip.locator(`button[data-chip="${action}"]`).count()) === 1, `no ${action} button`);
		});

		await check(
			'confirm mode: nothing is in research memory until Approve (Inspect Memory State lists it as awaiting approval)',
			async () => {
				const before = await panelText();
				expect(
					!before.memories.includes('tagged from the main branch'),
					`research memory already holds it: ${before.memories.slice(0, 300)}`,
				);
				expect(
					before.pending.includes('tagged from the main branch'),
					`not listed as awaiting approval: ${before.pending.slice(0, 300)}`,
				);
				await chipOf(replyA).locator('button[data-chip="approve"]').click();
				await web.locator('div.memory-chip[data-state="approved"]').first().waitFor({ timeout: 30000 });
				const after = await panelText();
				expect(
					after.memories.includes('tagged from the main branch'),
					`not stored after Approve: ${after.memories.slice(0, 300)}`,
				);
				expect(!after.pending.includes('tagged from the main branch'), 'still listed as awaiting approval');
			},
		);

		await check('confirm mode: Edit stores the edited text, not the proposed one', async () => {
			const reply = await correct(B);
			const chip = chipOf(reply);
			await chip.locator('button[data-chip="edit"]').click();
			const area = web.locator('textarea.memory-chip-edit');
			await area.waitFor({ timeout: 10000 });
			await area.fill(B_EDITED);
			await web.locator('div.memory-chip button[data-chip="save"]').click();
			await web.locator('div.memory-chip[data-state="approved"]', { hasText: B_EDITED }).waitFor({ timeout: 30000 });
			const after = await panelText();
			expect(after.memories.includes('Ireland'), `edited text not stored: ${after.memories.slice(0, 400)}`);
			expect(!after.memories.includes('the staging cluster runs in eu-west-1, not'), 'the unedited text was stored');
		});

		await check("confirm mode: Discard stores nothing, and the reply's trace records it", async () => {
			const reply = await correct(C);
			await chipOf(reply).locator('button[data-chip="discard"]').click();
			await web.locator('div.memory-chip[data-state="discarded"]').first().waitFor({ timeout: 30000 });
			// The trace is re-sent with the decision added.
			const last = replies.last();
			await last
				.locator('vscode-collapsible.trace', { hasText: /discarded: nothing written/ })
				.waitFor({ state: 'attached', timeout: 15000 });
			const trace = await last.locator('vscode-collapsible.trace').textContent();
			expect(/awaiting approval/.test(trace), 'the trace does not say the write awaited approval');
			await page.screenshot({ path: path.join(OUT, 'memory-confirm.png') });
			const after = await panelText();
			expect(!after.memories.includes('nightly job'), 'a discarded memory was stored');
			expect(!after.pending.includes('nightly job'), 'a discarded memory is still pending');
		});
	} finally {
		if (original === null) fs.rmSync(settingsFile, { force: true });
		else fs.writeFileSync(settingsFile, original);
		await page.waitForTimeout(1500);
	}
}

module.exports = { run };
