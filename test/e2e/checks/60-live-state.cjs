// Live state (issue 14) in the real workbench: the Problems view (TypeScript's language server),
// the git extension's working-tree diff, the editor selection, "where is X defined" through the
// language server, and "run the tests" → a Run in Terminal control that runs nothing until
// clicked. run.sh made the workspace a git repository with a tsconfig.json and a test script that
// writes ran-tests.txt. The real per-turn gather time is read from each trace and written to
// OUT/live-state-timings.json (docs/reliability.md quotes it).
const fs = require('fs');
const path = require('path');

async function run({ page, web, check, expect, OUT, WS_DIR, runCommand, send, lastReply }) {
	const gatherMs = [];
	const focusEditorArea = () => page.locator('.monaco-workbench .part.editor').click({ position: { x: 400, y: 300 } });
	/** Opens a workspace file through Go to File (twice at most; the error names the stage that failed). */
	const openFile = async (rel) => {
		const name = path.basename(rel);
		let failure = null;
		for (let attempt = 0; attempt < 2; attempt++) {
			let stage = 'focus the editor area';
			try {
				// Earlier checks leave documents open whose titles name the same file (a memory's
				// "Open turn" view quotes src/retry.ts); close them so the tab test and Enter are unambiguous.
				stage = 'close the open editors';
				await runCommand(page, 'View: Close All Editors');
				await focusEditorArea();
				stage = 'open Go to File';
				await runCommand(page, 'Go to File...');
				const input = page.locator('.quick-input-widget .quick-input-box input');
				stage = 'type the path';
				await input.fill(rel);
				stage = 'find the file in the list';
				// The file's own row (its label starts with the file name), clicked rather than Enter on
				// whatever row is highlighted first.
				const row = page.locator(`.quick-input-widget .monaco-list-row[aria-label^="${name}"]`).first();
				await row.waitFor({ timeout: 10000 });
				await row.click();
				stage = 'see its tab active';
				await page.waitForFunction(
					(n) => (document.querySelector('.tabs-container .tab.active')?.textContent ?? '').includes(n),
					name,
					{ timeout: 10000 },
				);
				return;
			} catch (e) {
				failure = `${stage}: ${e.message.split('\n')[0]}`;
				await page.screenshot({ path: path.join(OUT, `live-open-${name}-${attempt}.png`) });
				await page.keyboard.press('Escape');
			}
		}
		throw new Error(`could not open ${rel} (${failure})`);
	};
	/** Asks in a fresh conversation; the settled reply, its Markdown text and its trace's text. */
	const ask = async (text) => {
		await runCommand(page, 'Gated Memory: New Conversation');
		await web.locator('#empty').waitFor({ state: 'visible', timeout: 15000 });
		await send(web, text);
		const reply = await lastReply(web, 1, 30000);
		await page.waitForTimeout(300);
		const markdown = await reply.locator('.msg-markdown').innerText();
		const trace = (await reply.locator('vscode-collapsible.trace').textContent()) ?? '';
		const m = /live state gathered in (\d+) ms/.exec(trace);
		if (m) gatherMs.push({ question: text, ms: Number(m[1]) });
		return { reply, markdown, trace };
	};

	await check(
		'live state: a TS type error in the open file → a question about current errors quotes the diagnostic with file:line',
		async () => {
			fs.writeFileSync(
				path.join(WS_DIR, 'src', 'billing.ts'),
				"export const invoiceId = 'inv-1';\nexport const total: number = 'ten';\n",
			);
			await openFile('src/billing.ts');
			// TypeScript's language server reports TS2322 (the squiggle is the sign the Problems view has it).
			await page.locator('.monaco-editor .squiggly-error').first().waitFor({ timeout: 90000 });
			const { markdown, trace } = await ask('which errors does the Problems view show?');
			expect(/Problems: src\/billing\.ts:2/.test(markdown), `reply: ${markdown.slice(0, 400)}`);
			expect(
				/not assignable to type 'number'/.test(markdown),
				`reply does not quote the diagnostic: ${markdown.slice(0, 400)}`,
			);
			expect(
				/live_sources/.test(trace) && /diagnostics: the Problems view: \d+ errors?/.test(trace),
				`trace: ${trace.slice(0, 600)}`,
			);
		},
	);

	await check(
		'live state: a modified tracked file → a question about uncommitted changes names the file and shows the diff lines',
		async () => {
			fs.appendFileSync(path.join(WS_DIR, 'src', 'config.ts'), 'export const port = 8080;\n');
			let last = null;
			// The git extension sees the change through its file watcher; give it a moment, then ask (twice at most).
			for (let attempt = 0; attempt < 2; attempt++) {
				await page.waitForTimeout(attempt === 0 ? 2500 : 5000);
				last = await ask('what did I modify since my last commit?');
				if (/git diff src\/config\.ts/.test(last.markdown)) break;
			}
			expect(/git diff src\/config\.ts/.test(last.markdown), `reply: ${last.markdown.slice(0, 500)}`);
			expect(
				/\+export const port = 8080;/.test(last.markdown),
				`reply has no diff line: ${last.markdown.slice(0, 500)}`,
			);
			expect(
				/git: branch \S+, \d+ changed file/.test(last.trace) && /via the git extension API/.test(last.trace),
				`trace: ${last.trace.slice(0, 600)}`,
			);
		},
	);

	await check('live state: a selection → a question about the highlighted code quotes the selected lines', async () => {
		await openFile('src/retry.ts');
		await runCommand(page, 'Go to Line/Column...');
		const input = page.locator('.quick-input-widget .quick-input-box input');
		await input.fill(':3');
		await input.press('Enter');
		// Lines 3-5 exactly: from the start of line 3 to the end of line 5 (Shift+Down keeps the column,
		// so a third Shift+Down would reach into line 6).
		await page.keyboard.press('Home');
		for (let i = 0; i < 2; i++) await page.keyboard.press('Shift+ArrowDown');
		await page.keyboard.press('Shift+End');
		const { markdown } = await ask('what does this highlighted code do?');
		expect(/Selection: src\/retry\.ts:3-5/.test(markdown), `reply: ${markdown.slice(0, 400)}`);
		expect(
			/try \{/.test(markdown) && /return await run\(\);/.test(markdown),
			`reply does not quote the selected lines: ${markdown.slice(0, 400)}`,
		);
	});

	await check(
		'live state: "where is parseConfig defined?" is answered via the language server, and the trace says so',
		async () => {
			let last = await ask('where is parseConfig defined?');
			// A language server still indexing the project may need the second ask (its budget is live_source_budget_ms).
			if (!/Definition: src\/config\.ts:1/.test(last.markdown)) last = await ask('where is parseConfig defined?');
			expect(
				/Definition: src\/config\.ts:1/.test(last.markdown),
				`reply: ${last.markdown.slice(0, 400)} / trace: ${last.trace.slice(0, 600)}`,
			);
			expect(/export function parseConfig/.test(last.markdown), 'the definition is not quoted');
			expect(
				/symbols: the definition of parseConfig .*via language server \(vscode\.execute(Workspace|Definition)/.test(
					last.trace,
				),
				`trace: ${last.trace.slice(0, 800)}`,
			);
		},
	);

	await check(
		'live state: "run the tests" shows a Run in Terminal control and runs nothing until it is clicked',
		async () => {
			const marker = path.join(WS_DIR, 'ran-tests.txt');
			fs.rmSync(marker, { force: true });
			const { reply, markdown, trace } = await ask('run the tests');
			const button = reply.locator('button.proposal-run');
			await button.waitFor({ timeout: 10000 });
			expect((await button.innerText()).trim() === 'Run in Terminal', `control: ${await button.innerText()}`);
			expect(
				(await reply.locator('.proposal-detail').innerText()).trim() === 'npm test',
				'the exact command is not shown',
			);
			expect(
				/Proposed, not run/.test(markdown) && /proposed terminal action "npm test"/.test(trace),
				`reply/trace: ${markdown.slice(0, 300)}`,
			);
			await page.waitForTimeout(2000);
			expect(!fs.existsSync(marker), 'the tests ran before the click');
			await button.click();
			try {
				await reply.locator('.proposal[data-status="ran"]').waitFor({ timeout: 15000 });
			} catch {
				throw new Error(`no "ran" status on the control: ${await reply.locator('.msg-proposals').innerHTML()}`);
			}
			for (let i = 0; i < 60 && !fs.existsSync(marker); i++) await page.waitForTimeout(500);
			expect(fs.existsSync(marker), 'clicking Run in Terminal did not run the tests');
		},
	);

	fs.writeFileSync(path.join(OUT, 'live-state-timings.json'), JSON.stringify(gatherMs, null, 2));
	console.log(`live state gather per turn (ms, from the traces): ${gatherMs.map((g) => g.ms).join(', ')}`);
}

module.exports = { run };
