// Generation in the real workbench: a follow-up question is marked as one in its trace; then the
// OpenAI-compatible generator, pointed (through workspace settings) at the stub server on
// 127.0.0.1, streams a reply into the panel, the Stop button stops it midway, and the reply is kept
// as "stopped" with its partial text. Settings are restored and the stub closed afterwards.
// Screenshot: generation-stopped.png.
const fs = require('fs');
const path = require('path');
const { startOpenAiStub } = require('../../stubs/openaiStub.cjs');

async function run({ page, web, check, expect, OUT, WS_DIR, runCommand, send }) {
	const replies = web.locator('article.msg-assistant');
	const nextReply = async (count) => {
		await replies.nth(count).waitFor({ timeout: 30000 });
		return replies.nth(count);
	};

	await check(
		'a follow-up ("what does the function return?") after a retrieval question is marked as a follow-up',
		async () => {
			await runCommand(page, 'Gated Memory: New Conversation');
			await web
				.locator('article.msg')
				.first()
				.waitFor({ state: 'detached', timeout: 10000 })
				.catch(() => undefined);
			await send(web, 'How does retryWithBackoff in src/retry.ts work?');
			await nextReply(0);
			await send(web, 'what does the function return?');
			const reply = await nextReply(1);
			const headline = await reply.locator('vscode-collapsible.trace').getAttribute('description');
			expect(/follow-up \d/.test(headline), `trace headline: ${headline}`);
		},
	);

	const settingsFile = path.join(WS_DIR, '.vscode', 'settings.json');
	const original = fs.existsSync(settingsFile) ? fs.readFileSync(settingsFile, 'utf8') : null;
	const stub = await startOpenAiStub({ port: 0, slowDelayMs: 250 });
	try {
		await check('the OpenAI-compatible generator chosen in settings shows in the panel header', async () => {
			const settings = original ? JSON.parse(original) : {};
			Object.assign(settings, {
				'gatedMemory.generator': 'openai',
				'gatedMemory.openai.baseUrl': stub.url,
				'gatedMemory.openai.model': 'stub-slow',
			});
			fs.mkdirSync(path.dirname(settingsFile), { recursive: true });
			fs.writeFileSync(settingsFile, JSON.stringify(settings, null, 2));
			await web.locator('#generator', { hasText: 'stub-slow' }).waitFor({ timeout: 20000 });
		});

		await check(
			'a reply streams from the stub into the panel and Stop keeps the partial reply as "stopped"',
			async () => {
				const before = await replies.count();
				await send(web, 'How does retryWithBackoff in src/retry.ts handle the last attempt?');
				const streaming = web.locator('article.msg-streaming');
				await streaming.waitFor({ timeout: 20000 });
				// Text arrives in pieces: wait for a few words, then see more arrive.
				await page.waitForTimeout(300);
				const body = streaming.locator('.msg-markdown');
				let first = '';
				for (let i = 0; i < 50 && first.split(/\s+/).length < 3; i++) {
					first = (await body.innerText().catch(() => '')).trim();
					await page.waitForTimeout(100);
				}
				expect(first.split(/\s+/).length >= 3, `no streamed text: ${JSON.stringify(first)}`);
				await page.waitForTimeout(600);
				const later = (await body.innerText().catch(() => '')).trim();
				expect(later.length > first.length, 'the text did not grow while streaming');
				await streaming.locator('vscode-button.stop').click();
				const reply = await nextReply(before);
				await reply.locator('.msg-status-stopped').waitFor({ timeout: 10000 });
				const text = (await reply.locator('.msg-markdown').innerText()).trim();
				expect(text.length > 0 && /retry helper/i.test(text), `partial reply: ${text}`);
				expect(!/units/.test(text), 'the whole reply arrived: Stop did not stop it');
				expect(
					/stub-slow/.test(await reply.locator('.msg-generator').innerText()),
					'the reply does not name its generator',
				);
				const last = stub.requests.filter((r) => r.path === '/v1/chat/completions').at(-1);
				expect(last && last.closedEarly, 'the stub did not see the request cancelled');
				await page.screenshot({ path: path.join(OUT, 'generation-stopped.png') });
			},
		);
	} finally {
		if (original === null) fs.rmSync(settingsFile, { force: true });
		else fs.writeFileSync(settingsFile, original);
		await stub.close();
	}

	await check('with the settings restored, the header says evidence-only again', async () => {
		await web.locator('#generator', { hasText: /Evidence only/ }).waitFor({ timeout: 20000 });
	});
}

module.exports = { run };
