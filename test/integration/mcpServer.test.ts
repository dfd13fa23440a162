/**
 * `gmem mcp` over stdio, driven by the MCP SDK's client as an agent would: initialize, tools/list,
 * every tool on a real store (PGlite through its owner; the PostgreSQL server too when
 * GMEM_TEST_PG_URL is set), bad arguments, the read-only refusal, and an unreachable store.
 */
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gateOutput } from '../../src/cli/commands/gateCommand';
import { runCli } from '../../src/cli/main';
import { decideTurn } from '../../src/core/decide';
import { ingestDocuments } from '../../src/retrieval/ingest';
import { insertResearchMemory } from '../../src/store/memoryRepo';
import { workspaceId } from '../../src/store/location';
import { captureIo } from '../fixtures/captureIo';
import { startMcp, textOf, type McpTestClient } from '../fixtures/mcpClient';
import { mustOpen, tempStoreDir, testEngines } from '../fixtures/store_engines';

// Built at run time so no secret-shaped literal sits in the repository.
const TOKEN = 'ghp_' + 'A1b2C3d4'.repeat(5);
const READ = ['decide_turn', 'search_workspace', 'recall_memory', 'inspect_memory'];

function workspace(): string {
	const ws = tempStoreDir('gmem-mcp-ws-');
	mkdirSync(join(ws, 'src'));
	writeFileSync(
		join(ws, 'src/retry.ts'),
		'export async function retryWithBackoff<T>(run: () => Promise<T>, attempts = 3): Promise<T> {\n\tfor (let i = 1; ; i++) {\n\t\ttry {\n\t\t\treturn await run();\n\t\t} catch (e) {\n\t\t\tif (i >= attempts) throw e;\n\t\t}\n\t}\n}\n',
	);
	writeFileSync(
		join(ws, 'src/settings.ts'),
		`// the deploy bot's settings\nexport const deployBotToken = "${TOKEN}";\nexport const deployBotName = "shipit";\n`,
	);
	return ws;
}

for (const engine of testEngines()) {
	describe(`gmem mcp over stdio (${engine.name})`, function () {
		this.timeout(120_000);
		const ws = workspace();
		let db = '';
		let dispose: () => Promise<void> = async () => undefined;
		let rw: McpTestClient;
		let ro: McpTestClient;

		before(async () => {
			const created = await engine.create();
			dispose = created.dispose;
			db = created.location.kind === 'url' ? created.location.url : created.location.dir;
			const { io, err } = captureIo(ws, { ...process.env, GMEM_DB: '', GMEM_EMBEDDER: '' });
			assert.equal(await runCli(['index', ws, '--db', db], io), 0, err());
			// A memory stored before the write path redacted secrets: results must still never show it.
			const store = await mustOpen(created.location);
			const legacy = `the release signing token is ${TOKEN}`;
			await insertResearchMemory(store.db, {
				workspaceId: workspaceId(ws),
				docId: 'memory:legacy',
				kind: 'note',
				question: legacy,
				content: legacy,
				contentHash: 'legacy',
				sourceTurn: null,
			});
			await ingestDocuments(
				store.db,
				[{ id: 'memory:legacy', text: legacy, kind: 'note' }],
				{ workspaceId: workspaceId(ws), tier: 'research' },
				null,
			);
			await store.close();
			rw = await startMcp(['--db', db, '--workspace', ws, '--allow-writes'], ws);
			ro = await startMcp(['--db', db], ws); // the workspace defaults to the working directory
		});
		after(async () => {
			await Promise.allSettled([rw?.close(), ro?.close()]);
			await dispose();
			rmSync(ws, { recursive: true, force: true });
		});

		it('initialize: the server names itself and says whether it writes', () => {
			assert.equal(rw.client.getServerVersion()?.name, 'gated-memory');
			assert.ok(rw.client.getServerCapabilities()?.tools);
			assert.match(ro.client.getInstructions() ?? '', /read-only/);
			assert.match(rw.client.getInstructions() ?? '', /remember and forget write/);
		});

		it('tools/list: the four read tools read-only, plus remember and forget with --allow-writes', async () => {
			const names = async (c: McpTestClient) => (await c.client.listTools()).tools.map((t) => t.name);
			assert.deepEqual(await names(ro), READ);
			assert.deepEqual(await names(rw), [...READ, 'remember', 'forget']);
			const search = (await rw.client.listTools()).tools.find((t) => t.name === 'search_workspace');
			assert.equal(search?.inputSchema.type, 'object');
			assert.deepEqual(search?.inputSchema.required, ['query']);
			assert.equal(search?.annotations?.readOnlyHint, true);
		});

		it("decide_turn: the decision core's answer and trace, as gmem gate gives it", async () => {
			const message = 'what does it return?';
			const history = ['Where is retryWithBackoff defined?', { role: 'assistant', content: 'In src/retry.ts.' }];
			const got = await ro.json('decide_turn', { message, history });
			const want = gateOutput(
				decideTurn({
					id: null,
					history: [
						{ role: 'user', content: history[0] as string },
						history[1] as { role: 'assistant'; content: string },
					],
					utterance: message,
				}),
			);
			for (const key of ['followup', 'trigger', 'intent', 'path', 'retrieve', 'tiers', 'write', 'route'])
				assert.deepEqual(got[key], want[key], key);
			assert.equal((got.followup as { is_followup: boolean }).is_followup, true, 'the history was used');
			assert.ok(
				(got.trace as { steps: { kind: string }[] }).steps.some((st) => st.kind === 'gate'),
				'the trace is included',
			);
		});

		it("search_workspace: the chat turn's retrieval over this workspace with its trace; an indexed secret stays redacted", async () => {
			const r = await ro.json<{
				hits: { path: string; start_line: number; text: string }[];
				trace: { kind: string }[];
			}>('search_workspace', { query: 'retryWithBackoff attempts', k: 3 });
			assert.equal(r.hits[0]?.path, 'src/retry.ts');
			assert.match(r.hits[0].text, /retryWithBackoff/);
			assert.deepEqual([...new Set(r.trace.map((s) => s.kind))].sort(), ['evidence', 'note', 'rerank', 'retrieval']);
			const secret = await ro.call('search_workspace', { query: 'deploy bot token settings' });
			assert.match(textOf(secret), /settings\.ts/);
			assert.match(textOf(secret), /\[REDACTED\]/);
			assert.doesNotMatch(textOf(secret), new RegExp(TOKEN));
		});

		it('remember → recall_memory: a correction supersedes what it contradicts, and recall never returns the superseded memory', async () => {
			const first = await rw.json<{ report: { research: { doc_id: string } } }>('remember', {
				text: 'The staging cluster deploys with Helm charts.',
			});
			const fix = await rw.json<{ trigger: string; report: { superseded: string[] } }>('remember', {
				text: 'Actually, the staging cluster deploys with Kustomize, not Helm charts.',
			});
			assert.equal(fix.trigger, 'correction');
			assert.deepEqual(fix.report.superseded, [first.report.research.doc_id]);
			const recalled = await ro.json<{
				memories: { tier: string; text: string }[];
				trace: { kind: string; tier: string }[];
			}>('recall_memory', { query: 'how does the staging cluster deploy', tiers: ['research'] });
			assert.ok(
				recalled.memories.some((m) => /Kustomize/.test(m.text)),
				JSON.stringify(recalled.memories),
			);
			assert.ok(
				!recalled.memories.some((m) => m.text === 'The staging cluster deploys with Helm charts.'),
				'a superseded memory was recalled',
			);
			assert.deepEqual(
				recalled.trace.map((s) => `${s.kind}:${s.tier}`),
				['retrieval:research'],
			);
			const state = await ro.json<{ memories: { docId: string; superseded: boolean }[] }>('inspect_memory');
			assert.equal(state.memories.find((m) => m.docId === first.report.research.doc_id)?.superseded, true);
		});

		it('remember redacts a secret before storing it; no tool returns one, not even one stored before the filter', async () => {
			const r = await rw.json<{ write: string[]; report: { profile: { key: string }[] } }>('remember', {
				text: `My deploy token is ${TOKEN}`,
				tier: 'profile',
			});
			assert.deepEqual(r.write, ['profile']);
			assert.deepEqual(
				r.report.profile.map((p) => p.key),
				['deploy token'],
			);
			const profile = await ro.call('recall_memory', { query: 'deploy token', tiers: ['profile'] });
			assert.match(textOf(profile), /deploy token: \[REDACTED\]/);
			const everything = [
				profile,
				await ro.call('inspect_memory'),
				await ro.call('recall_memory', { query: 'release signing token' }),
			];
			for (const result of everything) assert.doesNotMatch(JSON.stringify(result), new RegExp(TOKEN));
			assert.match(
				textOf(everything[2]),
				/release signing token is \[REDACTED\]/,
				'the legacy memory is found, redacted',
			);
		});

		it('forget: a profile key with its history, and a research memory by id', async () => {
			await rw.json('remember', { text: 'remember my shell', key: 'shell', value: 'fish' });
			assert.deepEqual(await rw.json('forget', { profile_key: 'shell' }), { forgotten: { profile_entries: 1 } });
			assert.deepEqual(await rw.json('forget', { memory_id: 'memory:legacy' }), { forgotten: { research_memory: 1 } });
			const state = await ro.json<{ profile: { key: string }[]; memories: { docId: string }[] }>('inspect_memory');
			assert.ok(!state.profile.some((p) => p.key === 'shell'));
			assert.ok(!state.memories.some((m) => m.docId === 'memory:legacy'));
		});

		it('a bad argument is an error result that names it; an unknown tool is a protocol error', async () => {
			const bad = await ro.call('search_workspace', { query: 'retry', k: 0 });
			assert.equal(bad.isError, true);
			assert.match(textOf(bad), /invalid arguments for search_workspace[\s\S]*at k/);
			const missing = await ro.call('decide_turn', {});
			assert.match(textOf(missing), /invalid arguments for decide_turn[\s\S]*at message/);
			const both = await rw.call('forget', { profile_key: 'a', path: 'b' });
			assert.match(textOf(both), /exactly one of memory_id, profile_key, path/);
			await assert.rejects(ro.call('no_such_tool'), /unknown tool "no_such_tool"/);
		});

		it('read-only: remember and forget are refused with how to allow writes, and nothing is written', async () => {
			const before = await ro.json<{ tiers: unknown }>('inspect_memory');
			await assert.rejects(
				ro.call('remember', { text: 'My editor is Helix.' }),
				/read-only: start it with "gmem mcp --allow-writes"/,
			);
			await assert.rejects(ro.call('forget', { profile_key: 'deploy token' }), /read-only/);
			assert.deepEqual((await ro.json<{ tiers: unknown }>('inspect_memory')).tiers, before.tiers);
		});
	});
}

describe('gmem mcp with the store unavailable', function () {
	this.timeout(60_000);
	let c: McpTestClient;
	before(async () => {
		// A closed port on this machine: the connection is refused at once.
		c = await startMcp(['--db', 'postgres://gmem@127.0.0.1:1/nowhere'], process.cwd());
	});
	after(() => c?.close());

	it('a store tool returns an error result and the server keeps serving', async () => {
		for (const [name, args] of [
			['search_workspace', { query: 'retry' }],
			['inspect_memory', {}],
		] as const) {
			const r = await c.call(name, args);
			assert.equal(r.isError, true, name);
			assert.match(textOf(r), /the memory store is unavailable: cannot open the store/, name);
		}
		const decided = await c.json<{ trigger: string }>('decide_turn', { message: 'hello there' });
		assert.equal(decided.trigger, 'greeting', 'the server is still up and answers');
	});
});
