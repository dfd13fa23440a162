// Live workspace index: after the core checks indexed the workspace, the status bar says "up to
// date · N chunks"; a file written to disk behind the editor's back (as a git checkout would) is
// picked up by the watcher within its debounce and a question about it cites it; "Forget This
// File" removes it again, and the same question no longer cites it.
const fs = require('fs');
const path = require('path');

const REL = 'src/gmE2eWatched.ts';
const FN = 'quokkaLedgerReconcile';

async function run({ page, web, check, expect, WS_DIR, runCommand, send, lastReply }) {
	const statusItem = page.locator('#workbench\\.parts\\.statusbar .statusbar-item', { hasText: /Gated Memory:/ });
	const chunksShown = async () => {
		const m = /up to date · ([\d,]+) chunks/.exec(await statusItem.first().innerText());
		return m ? Number(m[1].replace(/,/g, '')) : null;
	};
	const focusEditorArea = () => page.locator('.monaco-workbench .part.editor').click({ position: { x: 400, y: 300 } });
	const ask = async () => {
		await focusEditorArea();
		await runCommand(page, 'Gated Memory: New Conversation');
		await web.locator('#empty').waitFor({ state: 'visible', timeout: 15000 });
		await send(web, `How does ${FN} in ${REL} work?`);
		const reply = await lastReply(web, 1);
		await reply.locator('.msg-markdown').waitFor({ timeout: 30000 });
		await page.waitForTimeout(500); // a streamed reply settles
		return reply.locator('.msg-markdown').innerText();
	};
	const cites = (text) => text.includes(`${REL}:`);

	let before = null;
	await check('status bar: "Gated Memory: up to date · N chunks" after the workspace was indexed', async () => {
		await statusItem.first().waitFor({ timeout: 15000 });
		await page.waitForFunction(
			() =>
				[...document.querySelectorAll('#workbench\\.parts\\.statusbar .statusbar-item')].some((e) =>
					/Gated Memory: up to date · [\d,]+ chunks/.test(e.textContent ?? ''),
				),
			null,
			{ timeout: 30000 },
		);
		before = await chunksShown();
		expect(before !== null && before > 0, `status bar: ${await statusItem.first().innerText()}`);
	});

	await check(
		'a file written outside the editor is indexed by the watcher and a question about it cites it',
		async () => {
			fs.writeFileSync(
				path.join(WS_DIR, REL),
				`/** Reconciles the ledger for the e2e watcher check. */\nexport function ${FN}(entries: number[]): number {\n\tlet balance = 0;\n\tfor (const e of entries) balance += e;\n\treturn balance;\n}\n`,
			);
			// The watcher's debounce (1 s) plus one worker batch: the status bar's count moves when it is done.
			await page.waitForFunction(
				(n) =>
					[...document.querySelectorAll('#workbench\\.parts\\.statusbar .statusbar-item')].some((e) => {
						const m = /up to date · ([\d,]+) chunks/.exec(e.textContent ?? '');
						return m && Number(m[1].replace(/,/g, '')) > n;
					}),
				before ?? 0,
				{ timeout: 20000 },
			);
			const text = await ask();
			expect(cites(text), `reply does not cite ${REL}: ${text.slice(0, 300)}`);
		},
	);

	await check('"Forget This File" on the open file removes it: the same question no longer cites it', async () => {
		await focusEditorArea();
		await runCommand(page, 'Go to File');
		const input = page.locator('.quick-input-widget .quick-input-box input');
		await input.fill(path.basename(REL));
		await page
			.locator('.quick-input-widget .monaco-list-row', { hasText: path.basename(REL) })
			.first()
			.click({ timeout: 10000 });
		await page.locator('.tabs-container .tab.active', { hasText: path.basename(REL) }).waitFor({ timeout: 10000 });
		await runCommand(page, 'Gated Memory: Forget This File');
		await page
			.locator('.notifications-toasts .notification-toast', { hasText: `forgot ${REL}` })
			.waitFor({ timeout: 15000 });
		const text = await ask();
		expect(!cites(text), `reply still cites ${REL}: ${text.slice(0, 300)}`);
	});

	await focusEditorArea();
	await runCommand(page, 'View: Close All Editors').catch(() => undefined);
	fs.rmSync(path.join(WS_DIR, REL), { force: true });
}

module.exports = { run };
