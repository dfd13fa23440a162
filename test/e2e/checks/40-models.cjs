// Models inside the real workbench's extension host: with the stand-in model pair (real MiniLM-L6
// shape, random weights) in gatedMemory.models.localPath (user settings, written by run.sh), switch
// the workspace to embedder "minilm" + reranker "minilm". The settings change re-embeds the indexed
// workspace in the background (indexing worker, onnxruntime-node); a question's decision trace must
// then show the vector arm with that model over every chunk and the reranker's status "model".
// Before the switch, the defaults (built-in embedder + built-in linear reranker, shipped in the
// .vsix) must already run: vector arm and an order-only rerank step. The workspace settings are
// restored afterwards.
const fs = require('fs');
const path = require('path');

const QUESTION = 'How does retryWithBackoff in src/retry.ts retry a failed call?';

async function run({ page, check, expect, WS_DIR, send, runCommand }) {
	// The chat view's visible frame: other webviews of the extension (Inspect Memory State, a view
	// hidden and shown again) may sit beside it in the DOM.
	const web = page
		.locator('iframe.webview[src*="extensionId=gated-memory.gated-memory"]')
		.filter({ visible: true })
		.first()
		.contentFrame()
		.frameLocator('#active-frame');
	const file = path.join(WS_DIR, '.vscode', 'settings.json');
	const before = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
	const settings = before ? JSON.parse(before) : {};
	await page
		.context()
		.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(process.env.CS_URL).origin });

	/** Sends the question and returns the decision trace JSON of its reply (via "Copy trace JSON"). */
	const askForTrace = async () => {
		const replies = web.locator('article.msg-assistant');
		const n = await replies.count();
		await send(web, QUESTION);
		const reply = replies.nth(n);
		await reply.waitFor({ timeout: 60000 });
		await page.evaluate(() => navigator.clipboard.writeText(''));
		await reply.locator('button.copy-trace').click();
		// The host writes the clipboard asynchronously: read until it holds the whole trace.
		for (let i = 0; i < 50; i++) {
			const text = await page.evaluate(() => navigator.clipboard.readText());
			try {
				const trace = JSON.parse(text);
				if (trace && Array.isArray(trace.steps)) return trace;
			} catch {
				// not there yet
			}
			await page.waitForTimeout(200);
		}
		throw new Error('"Copy trace JSON" put no trace on the clipboard');
	};
	const notes = (trace) => trace.steps.filter((s) => s.kind === 'note').map((s) => s.message);

	try {
		// Indexed (again: unchanged files are skipped) with the default embedder before the switch.
		await runCommand(page, 'Gated Memory: Index Workspace');
		await page.waitForTimeout(3000);
		await check(
			'defaults, no download: the built-in embedder feeds the vector arm and the built-in linear reranker reorders (order only)',
			async () => {
				const trace = await askForTrace();
				const retrieval = trace.steps.find((s) => s.kind === 'retrieval');
				const rerank = trace.steps.find((s) => s.kind === 'rerank');
				expect(
					notes(trace).some((m) => m.startsWith('vector arm: gmem-static-code-v2')),
					`notes: ${notes(trace).join(' | ')}`,
				);
				expect(retrieval && retrieval.hits.some((h) => h.arms.vector), 'no hit came from the vector arm');
				expect(
					rerank && rerank.status === 'model' && rerank.model === 'gmem-rerank-linear-v1' && rerank.order_only === true,
					`rerank: ${JSON.stringify(rerank)}`,
				);
				const reply = web.locator('article.msg-assistant').last();
				const panel = reply.locator('vscode-collapsible.trace');
				await panel.evaluate((el) => (el.open = true));
				const shown = (await panel.locator('li.step-rerank').textContent()) ?? '';
				expect(
					shown.includes('gmem-rerank-linear-v1: order only; floors on cosine'),
					`rerank step in the panel: ${shown}`,
				);
			},
		);

		fs.mkdirSync(path.dirname(file), { recursive: true });
		fs.writeFileSync(
			file,
			JSON.stringify(
				{ ...settings, 'gatedMemory.models.embedder': 'minilm', 'gatedMemory.models.reranker': 'minilm' },
				null,
				2,
			),
		);

		await check(
			'embedder + reranker "minilm" from a local folder: the trace shows the vector arm and "rerank … model"',
			async () => {
				// Re-embedding runs in the background after the settings change; until it has covered every
				// chunk the trace says so (lexical-only / "not finished"), so ask again until it has.
				let trace;
				let vector;
				for (let attempt = 0; attempt < 12; attempt++) {
					trace = await askForTrace();
					vector = notes(trace).find((m) => m.startsWith('vector arm: Xenova/all-MiniLM-L6-v2'));
					const full = vector && /(\d+) of \1 chunks embedded/.test(vector);
					const rerank = trace.steps.find((s) => s.kind === 'rerank');
					if (full && rerank && rerank.status === 'model') break;
					await page.waitForTimeout(5000);
				}
				const retrieval = trace.steps.find((s) => s.kind === 'retrieval');
				const rerank = trace.steps.find((s) => s.kind === 'rerank');
				expect(!!vector && /(\d+) of \1 chunks embedded/.test(vector), `notes: ${notes(trace).join(' | ')}`);
				expect(retrieval && retrieval.arm_mode === 'hybrid', `arm_mode: ${retrieval && retrieval.arm_mode}`);
				expect(
					retrieval.hits.some((h) => h.arms.vector),
					'no hit came from the vector arm',
				);
				expect(
					rerank && rerank.status === 'model' && rerank.pairs === retrieval.hits.length,
					`rerank: ${JSON.stringify(rerank)}`,
				);
				// The note names the reranker by its model id (repo@revision) since retrieveWorkspace writes it.
				expect(
					notes(trace).some((m) => /^reranker: (\S+\/)?ms-marco-MiniLM-L-6-v2\b/.test(m)),
					`notes: ${notes(trace).join(' | ')}`,
				);
			},
		);

		await check('the reply panel shows the rerank step with status "model" and names the vector model', async () => {
			const reply = web.locator('article.msg-assistant').last();
			const trace = reply.locator('vscode-collapsible.trace');
			await trace.evaluate((el) => (el.open = true));
			const rerank = (await trace.locator('li.step-rerank .step-detail').textContent()) ?? '';
			expect(/^model, \d+ pairs$/.test(rerank.trim()), `rerank step: ${rerank}`);
			const stepNotes = await trace.locator('li.step-note').allTextContents();
			expect(
				stepNotes.some((t) => t.includes('vector arm: Xenova/all-MiniLM-L6-v2')),
				`notes: ${stepNotes.join(' | ')}`,
			);
		});
	} finally {
		if (before === null) fs.rmSync(file, { force: true });
		else fs.writeFileSync(file, before);
		await page.waitForTimeout(1000);
	}
}

module.exports = { run };
