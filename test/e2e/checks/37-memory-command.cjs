// "remember that …" / "forget that …" typed in the chat panel (#19), in the real workbench: the
// reply confirms what was remembered and Inspect Memory State lists it; "forget that …" confirms
// what was forgotten with an Undo, and Inspect Memory State no longer lists it; Undo puts it back
// (then it is forgotten again, so later checks see the store as before).
const path = require('path');
const { readMemoryPanel } = require('./30-memory-state.cjs');

const FACT = 'the e2e billing webhook retries 7 times before giving up';

async function run({ page, web, check, expect, OUT, runCommand, send }) {
	const replies = web.locator('article.msg-assistant');

	/** Sends a turn and returns its reply once it holds `pattern`. */
	async function say(text, pattern) {
		const before = await replies.count();
		await send(web, text);
		const reply = replies.nth(before);
		await reply.waitFor({ timeout: 30000 });
		await reply.locator('.msg-markdown', { hasText: pattern }).waitFor({ timeout: 30000 });
		return reply;
	}

	/** Research memory as Inspect Memory State lists it (opened and closed again). */
	const memories = () => readMemoryPanel(page, runCommand, (panel) => panel.locator('#memories').innerText());
	/** The listing after the reply's write landed (it runs just after the reply is shown). */
	async function memoriesUntil(ok) {
		let text = '';
		for (let i = 0; i < 3; i++) {
			text = await memories();
			if (ok(text)) break;
			await page.waitForTimeout(1500);
		}
		return text;
	}

	await runCommand(page, 'Gated Memory: New Conversation');
	await web
		.locator('article.msg')
		.first()
		.waitFor({ state: 'detached', timeout: 10000 })
		.catch(() => undefined);

	await check('chat "remember that …": the reply confirms it, Inspect Memory State lists it', async () => {
		const reply = await say(`remember that ${FACT}`, /Remembered in research memory/);
		const body = await reply.locator('.msg-markdown').innerText();
		expect(body.includes(FACT), `reply: ${body}`);
		const trace = await reply.locator('vscode-collapsible.trace').textContent();
		expect(/memory_command/.test(trace), 'the trace does not show the memory_command step');
		const listed = await memoriesUntil((t) => t.includes('billing webhook retries 7 times'));
		expect(listed.includes('billing webhook retries 7 times'), `not listed: ${listed.slice(0, 400)}`);
	});

	await check(
		'chat "forget that …": the reply confirms with Undo, Inspect Memory State no longer lists it',
		async () => {
			const reply = await say(`forget that ${FACT}`, /Forgotten \(research memory\)/);
			const body = await reply.locator('.msg-markdown').innerText();
			expect(body.includes(FACT), `reply: ${body}`);
			const undo = reply.locator('button.proposal-run', { hasText: 'Undo' });
			expect((await undo.count()) === 1, 'no Undo under the reply');
			await page.screenshot({ path: path.join(OUT, 'memory-command.png') });
			const listed = await memoriesUntil((t) => !t.includes('billing webhook retries 7 times'));
			expect(!listed.includes('billing webhook retries 7 times'), `still listed: ${listed.slice(0, 400)}`);

			await undo.click();
			await reply.locator('.proposal[data-status="ran"]').waitFor({ timeout: 30000 });
			const back = await memoriesUntil((t) => t.includes('billing webhook retries 7 times'));
			expect(back.includes('billing webhook retries 7 times'), `Undo did not restore it: ${back.slice(0, 400)}`);
			await say(`forget that ${FACT}`, /Forgotten \(research memory\)/);
		},
	);
}

module.exports = { run };
