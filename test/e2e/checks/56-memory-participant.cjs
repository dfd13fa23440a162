// @memory in VS Code's own Chat view. code-server has no Copilot, so VS Code 1.100.3 shows no Chat
// view until some extension registers a default participant: the test-only provider does (proposed
// defaultChatParticipant, test/e2e/lmProvider). The request goes to @memory through the Chat view's
// input; its model is the one the Chat view picked (E2E Echo, the only one offered); the answer runs
// the same turn pipeline as the panel and ends with the route line.
const fs = require('fs');
const path = require('path');

async function run({ page, check, expect, OUT, runCommand }) {
	await check('@memory answers in the Chat view through the LM API model, with its route', async () => {
		const lines = () =>
			fs.existsSync(process.env.LM_LOG || '')
				? fs
						.readFileSync(process.env.LM_LOG, 'utf8')
						.split('\n')
						.filter(Boolean)
						.map((l) => JSON.parse(l))
				: [];
		const before = lines().filter((r) => r.event === 'request').length;
		await page.locator('.monaco-workbench .part.editor').click({ position: { x: 400, y: 300 } });
		await runCommand(page, 'Chat: Open Chat');
		const input = page.locator('.interactive-input-part .monaco-editor').first();
		try {
			await input.waitFor({ timeout: 20000 });
			await input.click();
			await page.keyboard.type('@memory How does retryWithBackoff in src/retry.ts work?', { delay: 10 });
			await page.keyboard.press('Enter');
			const response = page.locator('.interactive-response', { hasText: /route `?[a-z_]+/ }).last();
			await response.waitFor({ timeout: 60000 });
			const text = await response.innerText();
			expect(/E2E Echo received [1-9]\d* evidence block/.test(text), `@memory reply: ${text.slice(0, 400)}`);
			const req = lines().filter((r) => r.event === 'request')[before];
			expect(
				req && req.extensionId === 'gated-memory.gated-memory',
				`provider request: ${JSON.stringify(req && req.extensionId)}`,
			);
		} finally {
			const area = page.locator('.interactive-session').first();
			const dump = (await area.count()) ? await area.innerText().catch((e) => String(e)) : '(no .interactive-session)';
			fs.writeFileSync(path.join(OUT, 'chat-participant.txt'), dump);
			await page.screenshot({ path: path.join(OUT, 'chat-participant.png') });
		}
	});
}

module.exports = { run };
