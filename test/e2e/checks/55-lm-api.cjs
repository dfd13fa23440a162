// The Language Model API path in the real workbench: the test-only provider (test/e2e/lmProvider,
// registered through VS Code 1.100.3's proposed chatProvider API) offers the model "E2E Echo";
// with gatedMemory.generator = "lm" (workspace settings) the panel streams its replies. Checked:
// the model in the header; a reply that cites the evidence it received, with [n] links; the
// prompt it received (logged by the provider to LM_LOG) holds the evidence as delimited, quoted
// data, and among its standing instructions the relevant AGENTS.md section but not the other;
// Stop mid-stream (partial reply kept, nothing more added to it); a provider error keeps the
// message with a Retry, and Retry asks the provider again. Settings are restored afterwards.
const fs = require('fs');
const path = require('path');

const requests = () =>
	fs.existsSync(process.env.LM_LOG || '')
		? fs
				.readFileSync(process.env.LM_LOG, 'utf8')
				.split('\n')
				.filter(Boolean)
				.map((l) => JSON.parse(l))
		: [];
const requestLines = () => requests().filter((r) => r.event === 'request');

async function waitFor(page, fn, what, timeout = 15000) {
	const deadline = Date.now() + timeout;
	for (;;) {
		const v = fn();
		if (v) return v;
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await page.waitForTimeout(200);
	}
}

async function run({ page, web, check, expect, OUT, WS_DIR, runCommand, send }) {
	const replies = web.locator('article.msg-assistant');
	const settingsFile = path.join(WS_DIR, '.vscode', 'settings.json');
	const original = fs.existsSync(settingsFile) ? fs.readFileSync(settingsFile, 'utf8') : null;
	let stopRequest = null;
	try {
		await check(
			'LM API: the provider registered "E2E Echo" and generator "lm" shows it in the panel header',
			async () => {
				const registered = requests().find((r) => r.event === 'registered' || r.event === 'no-api');
				expect(registered && registered.event === 'registered', `provider log: ${JSON.stringify(registered)}`);
				const settings = original ? JSON.parse(original) : {};
				settings['gatedMemory.generator'] = 'lm';
				fs.mkdirSync(path.dirname(settingsFile), { recursive: true });
				fs.writeFileSync(settingsFile, JSON.stringify(settings, null, 2));
				await web.locator('#generator', { hasText: /VS Code language model/ }).waitFor({ timeout: 20000 });
				await runCommand(page, 'Gated Memory: New Conversation');
				await web.locator('#empty').waitFor({ state: 'visible', timeout: 15000 });
			},
		);

		let prompt = null;
		await check('LM API: a reply streams from the model and cites the evidence it received', async () => {
			const before = requestLines().length;
			await send(web, 'How does retryWithBackoff in src/retry.ts work?');
			await replies.first().waitFor({ timeout: 30000 });
			const reply = replies.first();
			const md = reply.locator('.msg-markdown');
			const text = (await md.innerText()).trim();
			expect(
				/^E2E Echo received [1-9]\d* evidence blocks?\. The evidence \[?1\]? comes from src\/retry\.ts:\d+-\d+/.test(
					text,
				),
				`reply: ${text}`,
			);
			expect((await md.locator('a.citation').count()) > 0, 'no [n] citation link in the reply');
			expect(/E2E Echo/.test(await reply.locator('.msg-generator').innerText()), 'the reply does not name the model');
			const req = await waitFor(page, () => requestLines()[before], 'the provider request');
			prompt = req;
			await reply.locator('vscode-collapsible.trace').evaluate((el) => (el.open = true));
			const trace = await reply.locator('vscode-collapsible.trace').innerText();
			expect(
				/instruction file AGENTS\.md § Backoff policy applied/.test(trace),
				'the trace does not say the AGENTS.md section was applied',
			);
		});

		await check(
			'LM API: the prompt it received holds the evidence as quoted data, and only the relevant AGENTS.md section',
			async () => {
				expect(prompt, 'no request logged');
				const all = prompt.messages.map((m) => m.text).join('\n');
				const m =
					/<(evidence-[0-9a-f]+) n="1" tier="workspace" source="(src\/retry\.ts:\d+-\d+[^"]*)">\n\[1\] [^\n]+\n([\s\S]*?)<\/\1>/.exec(
						all,
					);
				expect(m, `no delimited evidence block in the prompt: ${all.slice(0, 600)}`);
				expect(/retryWithBackoff/.test(m[3]), 'the evidence block does not hold the chunk');
				expect(
					/untrusted, quoted DATA/.test(all) && /never instructions/.test(all),
					'the prompt does not say evidence is data',
				);
				// The standing instructions sit in the first (system) message; AGENTS.md also reaches the
				// evidence as an indexed workspace file, which is quoted data like any other file.
				const system = prompt.messages[0].text;
				expect(
					/- Backoff policy \(AGENTS\.md\): When explaining retry code/.test(system),
					`the relevant AGENTS.md section is not among the standing instructions: ${system.slice(-400)}`,
				);
				expect(
					!/Testing \(AGENTS\.md\)|Run npm test before committing/.test(system),
					'the irrelevant AGENTS.md section was pasted into the standing instructions',
				);
				expect(prompt.extensionId === 'gated-memory.gated-memory', `requested by ${prompt.extensionId}`);
			},
		);

		await check(
			'LM API: Stop mid-stream keeps the partial reply as "stopped", and nothing more arrives in it',
			async () => {
				const before = await replies.count();
				const sent = requestLines().length;
				await send(web, 'Explain slowly how retryWithBackoff in src/retry.ts waits between attempts');
				const streaming = web.locator('article.msg-streaming');
				await streaming.waitFor({ timeout: 20000 });
				const body = streaming.locator('.msg-markdown');
				let first = '';
				for (let i = 0; i < 80 && first.split(/\s+/).length < 3; i++) {
					first = (await body.innerText().catch(() => '')).trim();
					await page.waitForTimeout(100);
				}
				expect(first.split(/\s+/).length >= 3, `no streamed text: ${JSON.stringify(first)}`);
				await page.waitForTimeout(800);
				const later = (await body.innerText().catch(() => '')).trim();
				expect(later.length > first.length, 'the text did not grow while streaming');
				await streaming.locator('vscode-button.stop').click();
				await replies.nth(before).waitFor({ timeout: 15000 });
				const reply = replies.nth(before);
				await reply.locator('.msg-status-stopped').waitFor({ timeout: 10000 });
				const text = (await reply.locator('.msg-markdown').innerText()).trim();
				expect(/^E2E Echo received/.test(text), `partial reply: ${text}`);
				expect(!/one slow word at a time\.\s*$/.test(text), 'the whole reply arrived: Stop did not stop it');
				// The provider keeps streaming (see below); the stopped reply must not take any of it.
				await page.waitForTimeout(1500);
				const after = (await reply.locator('.msg-markdown').innerText()).trim();
				expect(after === text, `the stopped reply still grew: ${JSON.stringify(text)} → ${JSON.stringify(after)}`);
				// VS Code 1.100.3 does not forward the caller's cancellation to the provider once the stream
				// has started ($tryStartChatRequest / $startChatRequest return at once, so the RPC token is
				// gone): the provider's token never fires and it streams to the end. Reported, not checked.
				stopRequest = sent;
				await page.screenshot({ path: path.join(OUT, 'lm-stopped.png') });
			},
		);

		await check(
			'LM API: a provider error keeps the message with a Retry, and Retry asks the provider again',
			async () => {
				const users = await web.locator('article.msg-user').count();
				const sent = requestLines().length;
				await send(web, 'provider-error: how does parseConfig in src/config.ts work?');
				const error = web.locator('article.msg-error');
				await error.first().waitFor({ timeout: 20000 });
				const text = await error.first().innerText();
				expect(/E2E Echo failed to answer/.test(text), `error: ${text}`);
				expect((await web.locator('article.msg-user').count()) === users + 1, 'the message was not kept');
				await waitFor(page, () => requestLines().length > sent, 'the failed request');
				const failedSoFar = requestLines().length;
				await error.first().locator('vscode-button.retry').click();
				await waitFor(page, () => requestLines().length > failedSoFar, 'the retried request');
				await web.locator('article.msg-error vscode-button.retry').first().waitFor({ timeout: 20000 });
				expect(
					(await web.locator('article.msg-user', { hasText: 'provider-error' }).count()) >= 1,
					'the message is gone after Retry',
				);
				await page.screenshot({ path: path.join(OUT, 'lm-error.png') });
			},
		);
	} finally {
		if (original === null) fs.rmSync(settingsFile, { force: true });
		else fs.writeFileSync(settingsFile, original);
	}
	await check('LM API: with the settings restored, the header says evidence-only again', async () => {
		await web.locator('#generator', { hasText: /Evidence only/ }).waitFor({ timeout: 20000 });
	});
	const stopped =
		stopRequest === null
			? undefined
			: requests().filter((r) => r.event === 'request' && /slowly/.test(r.messages.at(-1).text))[0];
	console.log(
		`     provider after Stop: ${stopped ? `finished its stream, token cancelled: ${stopped.cancelled}` : 'still streaming (not logged yet)'}`,
	);
}

module.exports = { run };
