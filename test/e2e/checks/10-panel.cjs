// The chat panel's reply features, on the last reply of the core checks (the retrieval question
// about src/retry.ts): the code-block toolbar (New file, Insert at cursor, Copy), the one-line
// trace summary that expands into tiers and evidence, "Copy trace JSON", and citation links.
// Screenshots: a streaming reply (panel-streaming.png) and the expanded timeline in dark and light
// (panel-trace-dark.png, panel-trace-light.png).
const path = require('path');
const { setTheme, contrastRatios } = require('../workbench.cjs');

/** The panel's new text (highlighted tokens, toolbar and action buttons, labels), probed for 4.5:1 contrast. */
const CONTRAST_SELECTORS = [
	'.hljs-keyword',
	'.hljs-number',
	'.hljs-title',
	'.code-lang',
	'.code-action',
	'.msg-action',
	'.msg-generator',
	'.step-evidence-item.kept',
];

async function run({ page, web, check, expect, OUT, runCommand }) {
	const sidebar = page.locator('#workbench\\.parts\\.sidebar');
	const shoot = async (name) => {
		const box = await sidebar.boundingBox();
		await page.screenshot({
			path: path.join(OUT, name),
			clip: { x: 0, y: 0, width: box.x + box.width, height: box.y + box.height },
		});
	};
	const editorText = async () =>
		(await page.locator('.part.editor .monaco-editor .view-lines').first().innerText()).replace(/\u00a0/g, ' ');
	const focusEditor = () => page.locator('.part.editor .monaco-editor .view-lines').first().click();
	const closeEditor = async () => {
		await focusEditor();
		await runCommand(page, 'View: Revert and Close Editor');
	};
	// The workbench's clipboard is the page's: let the test read it.
	await page
		.context()
		.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(process.env.CS_URL).origin });
	const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
	/** Polls the clipboard until `test(text)` holds (the host writes it asynchronously); returns the text. */
	const clipboardWhen = async (test, what) => {
		let text = '';
		for (const t0 = Date.now(); Date.now() - t0 < 10000; await page.waitForTimeout(100)) {
			text = await clipboard();
			if (test(text)) return text;
		}
		throw new Error(`clipboard never held ${what}; it holds ${JSON.stringify(text.slice(0, 80))}`);
	};

	const reply = web.locator('article.msg-assistant').last();
	const block = reply.locator('.code-block').first();

	await check('a quoted code block is highlighted and has Copy / Insert / New file buttons with labels', async () => {
		await block.waitFor({ timeout: 15000 });
		for (const [cls, label] of [
			['code-copy', 'Copy code'],
			['code-insert', 'Insert code at the cursor'],
			['code-newfile', 'Open code in a new file'],
		]) {
			expect(
				(await block.locator(`button.${cls}`).getAttribute('aria-label')) === label,
				`${cls} has no label "${label}"`,
			);
		}
		expect((await block.locator('pre code [class^="hljs-"]').count()) > 0, 'the code block is not highlighted');
	});

	await check('"New file" opens an untitled editor holding the code', async () => {
		await block.locator('button.code-newfile').click();
		await page.locator('.tabs-container .tab.active', { hasText: /Untitled/ }).waitFor({ timeout: 10000 });
		await page.waitForTimeout(300);
		expect(/retryWithBackoff/.test(await editorText()), 'the new editor does not hold the code');
	});

	await check('"Insert" puts the code at the cursor of the open editor', async () => {
		await focusEditor();
		await page.keyboard.press('Control+A');
		await page.keyboard.press('Delete');
		await page.keyboard.type('// above\n');
		await block.locator('button.code-insert').click();
		await page.waitForFunction(
			() =>
				/retryWithBackoff/.test(document.querySelector('.part.editor .monaco-editor .view-lines')?.textContent ?? ''),
			null,
			{ timeout: 10000 },
		);
		const text = await editorText();
		expect(/^\/\/ above\n/.test(text) && /retryWithBackoff/.test(text), `editor: ${text.slice(0, 120)}`);
		await closeEditor();
	});

	await check('"Copy" puts the code on the clipboard', async () => {
		const code = await block.locator('pre code').innerText();
		await page.evaluate(() => navigator.clipboard.writeText('(before Copy)'));
		await block.locator('button.code-copy').click();
		await clipboardWhen((t) => t.trim() === code.trim(), 'the code');
	});

	await check('the trace is one collapsed summary line that expands into tiers and evidence', async () => {
		const trace = reply.locator('vscode-collapsible.trace');
		await trace.evaluate((el) => (el.open = false));
		const summary = await trace.getAttribute('description');
		expect(
			/^retrieved \d+ from workspace in \d+ ms · /.test(summary) && !summary.includes('\n'),
			`summary: ${summary}`,
		);
		await trace.evaluate((el) => (el.open = true));
		const plan = await trace.locator('.trace-plan').innerText();
		expect(/workspace searched — k=\d+/.test(plan) && /research (skipped|chosen)/.test(plan), `plan: ${plan}`);
		const evidence = await trace.locator('.step-evidence-item').allInnerTexts();
		expect(
			evidence.some((t) => /^kept src\/retry\.ts:\d+-\d+/.test(t)),
			`evidence items: ${evidence.join(' | ')}`,
		);
		await reply.evaluate((el) => el.scrollIntoView({ block: 'start' }));
		await page.waitForTimeout(200);
		await shoot('panel-trace-dark.png');
	});

	await check(
		'highlighted code, buttons and labels keep a 4.5:1 contrast in dark, light and high-contrast themes',
		async () => {
			const low = [];
			for (const [key, theme] of [
				['dark', null],
				['light', 'Light Modern'],
				['hc', 'Dark High Contrast'],
			]) {
				if (theme) await setTheme(page, theme);
				if (key === 'light') await shoot('panel-trace-light.png');
				const ratios = await web.locator('body').evaluate(contrastRatios, CONTRAST_SELECTORS);
				console.log(`     ${key}: ${JSON.stringify(ratios)}`);
				expect(
					Object.keys(ratios).length === CONTRAST_SELECTORS.length,
					`missing: ${CONTRAST_SELECTORS.filter((s) => !(s in ratios)).join(', ')}`,
				);
				for (const [sel, r] of Object.entries(ratios)) if (r < 4.5) low.push(`${key} ${sel} ${r}`);
			}
			await setTheme(page, 'Dark Modern');
			expect(low.length === 0, `low contrast: ${low.join(', ')}`);
		},
	);

	await check('"Copy trace JSON" copies the reply\'s decision trace', async () => {
		await reply.locator('button.copy-trace').click();
		const json = JSON.parse(await clipboardWhen((t) => t.includes('"steps"'), 'the trace JSON'));
		expect(json.version === 1 && json.steps.some((s) => s.kind === 'retrieval'), 'copied JSON is not the trace');
	});

	await check('the retry menu offers retrieval forced and skipped, and closes with Escape', async () => {
		await reply.locator('button.retry-menu').click();
		const items = await reply.locator('.menu [role="menuitem"]').allInnerTexts();
		expect(
			items.join('|') === 'Retry|Retry with retrieval forced|Retry with retrieval skipped',
			`menu: ${items.join('|')}`,
		);
		await page.keyboard.press('Escape');
		expect(await reply.locator('.menu').isHidden(), 'Escape did not close the menu');
	});

	// The retry menu by keyboard (WAI-ARIA menu button): which element has focus, by its data-retrieval
	// (a menu item) or data-action (the button, or whatever Tab moved on to).
	const focused = () =>
		reply.evaluate(() => {
			const a = document.activeElement;
			return a ? (a.getAttribute('data-retrieval') ?? a.getAttribute('data-action') ?? a.tagName.toLowerCase()) : null;
		});
	await check(
		'the retry menu works from the keyboard: arrows wrap, Home/End, Escape back to the button, Tab closes',
		async () => {
			const button = reply.locator('button.retry-menu');
			const menu = reply.locator('.retry-menu .menu');
			const attr = (loc, name) => loc.getAttribute(name);
			expect(
				(await attr(button, 'aria-haspopup')) === 'menu' && (await attr(button, 'aria-expanded')) === 'false',
				'button: aria-haspopup="menu", aria-expanded="false"',
			);
			expect((await attr(menu, 'role')) === 'menu', 'the menu has role="menu"');
			const tabindexes = await menu
				.locator('[role="menuitem"]')
				.evaluateAll((els) => els.map((e) => e.getAttribute('tabindex')));
			expect(tabindexes.join() === '-1,-1,-1', `menu items are not in the Tab order: ${tabindexes.join()}`);
			const steps = [];
			const press = async (key) => {
				await page.keyboard.press(key);
				steps.push(`${key}→${await focused()}`);
			};
			await button.focus();
			await press('Enter');
			expect(await menu.isVisible(), 'Enter on the button did not open the menu');
			expect((await attr(button, 'aria-expanded')) === 'true', 'aria-expanded is not "true" while open');
			for (const key of ['ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowUp', 'Home', 'End']) await press(key);
			await press('Escape');
			const expected = [
				'Enter→auto',
				'ArrowDown→force',
				'ArrowDown→skip',
				'ArrowDown→auto',
				'ArrowUp→skip',
				'Home→auto',
				'End→skip',
				'Escape→retry-menu',
			];
			expect(steps.join(' ') === expected.join(' '), `focus: ${steps.join(' ')}`);
			expect(await menu.isHidden(), 'Escape did not close the menu');
			expect((await attr(button, 'aria-expanded')) === 'false', 'aria-expanded is not "false" after Escape');
			await page.keyboard.press('ArrowUp');
			expect(
				(await menu.isVisible()) && (await focused()) === 'skip',
				`ArrowUp on the button should open at the last item (focus: ${await focused()})`,
			);
			await page.keyboard.press('Tab');
			const after = await focused();
			expect(await menu.isHidden(), 'Tab did not close the menu');
			expect(
				!['auto', 'force', 'skip', 'retry-menu'].includes(after),
				`Tab should move on past the button, focus: ${after}`,
			);
			expect((await attr(button, 'aria-expanded')) === 'false', 'aria-expanded is not "false" after Tab');
			await button.focus();
			await page.keyboard.press(' ');
			expect(
				(await menu.isVisible()) && (await focused()) === 'auto',
				'Space on the button did not open the menu at the first item',
			);
			await page.keyboard.press('Escape');
			expect(await menu.isHidden(), 'Escape did not close the menu');
		},
	);
	const repliedTurn = await reply.getAttribute('data-turn');

	const citations = reply.locator('a.citation');
	if ((await citations.count()) === 0) {
		console.log(
			'SKIP - citation link: the reply has no [n] citation with a file URI (the host does not send citations yet)',
		);
	} else {
		await check('a [n] citation opens the cited file at its lines', async () => {
			await citations.first().click();
			await page.locator('.tabs-container .tab.active', { hasText: 'retry.ts' }).waitFor({ timeout: 10000 });
			await page
				.locator('.statusbar-item', { hasText: /selected/ })
				.first()
				.waitFor({ timeout: 10000 });
		});
	}

	// A streaming reply, rendered from the protocol messages the host sends (posted into the page,
	// as the host's postMessage arrives): progress line, partial Markdown, Stop button; then stopped.
	await check('a streaming reply shows progress, partial text and a labelled Stop button, then settles', async () => {
		const post = (message) => web.locator('body').evaluate((_b, m) => window.postMessage(m, '*'), message);
		const turnId = 'e2e-stream';
		await post({ type: 'chat/start', params: { turnId, generator: 'llama3 · OpenAI-compatible' } });
		await post({ type: 'chat/progress', params: { turnId, message: 'Searching workspace…' } });
		await web
			.locator('article.msg-streaming .msg-progress', { hasText: 'Searching workspace' })
			.waitFor({ timeout: 5000 });
		await post({
			type: 'chat/delta',
			params: { turnId, text: '`retryWithBackoff` retries the call with exponential backoff [1]' },
		});
		await post({ type: 'chat/delta', params: { turnId, text: ' and gives up after\n\n```ts\nfor (let attempt = 0;' } });
		const streaming = web.locator('article.msg-streaming');
		await streaming.locator('.msg-markdown pre').waitFor({ timeout: 5000 });
		const stop = streaming.locator('vscode-button.stop');
		expect((await stop.getAttribute('aria-label')) === 'Stop generating', 'Stop button label');
		await streaming.evaluate((el) => el.scrollIntoView({ block: 'end' }));
		await shoot('panel-streaming.png');
		await post({
			type: 'chat/reply',
			params: {
				turnId,
				markdown: '`retryWithBackoff` retries the call with exponential backoff',
				trace: null,
				status: 'stopped',
			},
		});
		await web.locator(`article.msg-assistant[data-turn="${turnId}"] .msg-status-stopped`).waitFor({ timeout: 5000 });
		expect((await web.locator('article.msg-streaming').count()) === 0, 'the streaming entry did not settle');
	});

	// Activating a menu item by keyboard really retries: Space, then Enter, on "Retry with retrieval
	// skipped" of the retrieval reply; each adds a settled reply marked "retry · retrieval skipped".
	await check('Space and Enter on a retry menu item retry the reply (retrieval skipped)', async () => {
		const replied = web.locator(`article.msg-assistant[data-turn="${repliedTurn}"]`);
		const all = web.locator('article.msg-assistant');
		for (const key of [' ', 'Enter']) {
			const count = await all.count();
			await replied.locator('button.retry-menu').focus();
			await page.keyboard.press('ArrowUp');
			expect(
				(await focused()) === 'skip',
				`ArrowUp did not open the menu at "retrieval skipped" (focus: ${await focused()})`,
			);
			await page.keyboard.press(key);
			const retried = all.nth(count);
			await retried.waitFor({ timeout: 60000 });
			const badge = await retried.locator('.msg-status-retry').innerText();
			expect(
				badge === 'retry · retrieval skipped',
				`${JSON.stringify(key)}: the new reply's badge is ${JSON.stringify(badge)}`,
			);
			expect(await replied.locator('.menu').isHidden(), 'the menu stayed open after a retry');
		}
	});
}

module.exports = { run };
