/**
 * The chat turn's stages under fault, through the shared turn pipeline with real parts: a store
 * (PGlite through its owner, and the PostgreSQL server when GMEM_TEST_PG_URL is set) indexed by
 * the indexing worker, the built-in embedder and reranker, evidence-only mode and the
 * OpenAI-compatible generator over HTTP against the stub server (the one stand-in: a hosted model).
 * Each fault degrades its own stage with a trace note; the turn still answers (or, for a stalled
 * generator, ends with a retryable error that keeps the user's message). Generator stalls are in
 * generatorStall.test.ts (no store involved).
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { DEFAULT_THRESHOLDS } from '../../../src/core/thresholds';
import type { DecisionTrace } from '../../../src/core/trace';
import { DEFAULT_MODEL_SETTINGS, ModelsRuntime, type ActiveReranker } from '../../../src/chat/modelsRuntime';
import { runPipeline, type PipelinePorts, type PipelineTurn } from '../../../src/chat/turnPipeline';
import { pipelineTurn } from '../../fixtures/pipelineTurn';
import { storeMemory, storePersist } from '../../../src/chat/turnStore';
import { WorkspaceMemory } from '../../../src/chat/workspaceMemory';
import { EvidenceOnlyGenerator } from '../../../src/generation/evidenceOnlyGenerator';
import type { Generator } from '../../../src/generation/generator';
import { OpenAiGenerator } from '../../../src/generation/openaiGenerator';
import { readLock } from '../../../src/store/lockFile';
import { workspaceId, type StoreLocation } from '../../../src/store/location';
import { startOpenAiStub, type OpenAiStub } from '../../stubs/openaiStub.cjs';
import { quietLogger as quiet } from '../../fixtures/hostDoubles';
import { testEngines } from '../../fixtures/store_engines';
import { folderMemory } from '../../fixtures/folderMemory';

const QUESTION = 'How does parseConfig in src/config.ts handle invalid JSON input?';
const sink = { progress() {}, start() {}, delta() {} };
const notes = (trace: DecisionTrace | null) =>
	(trace?.steps ?? []).flatMap((s) => (s.kind === 'note' ? [`${s.level}: ${s.message}`] : []));

/** The real models runtime (built-in embedder and reranker) whose reranker can be made to throw, as a broken ONNX session would. */
class FlakyRerankerRuntime extends ModelsRuntime {
	rerankFails = false;
	override activeReranker(): ActiveReranker {
		const real = super.activeReranker();
		if (!this.rerankFails || real.status !== 'ready') return real;
		return {
			status: 'ready',
			id: real.id,
			reranker: { id: real.id, rerank: () => Promise.reject(new Error('reranker session lost')) },
		};
	}
}

/** Kills every connection to the store's database: the PGlite owner process (kill -9), or every server backend of it. */
async function cutStore(location: StoreLocation): Promise<void> {
	if (location.kind === 'folder') {
		const pid = readLock(location.dir)?.pid;
		assert.ok(pid, 'an owner holds the store');
		process.kill(pid, 'SIGKILL');
		for (let i = 0; i < 100 && alive(pid); i++) await new Promise((r) => setTimeout(r, 20));
		return;
	}
	const admin = new pg.Client({ connectionString: location.url });
	await admin.connect();
	const cut = await admin.query<{ ok: boolean }>(
		'SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
	);
	await admin.end();
	assert.ok(cut.rows.length > 0, 'the pool held connections to cut');
}

function alive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

for (const engine of testEngines()) {
	describe(`faults: the chat turn's stages under fault (${engine.name})`, function () {
		this.timeout(120_000);
		let base: string;
		let ws: string;
		let location: StoreLocation;
		let dispose: () => Promise<void>;
		let models: FlakyRerankerRuntime;
		let memory: WorkspaceMemory;
		let stub: OpenAiStub;
		const ids = () => [workspaceId(ws)];
		const portsOver = (m: WorkspaceMemory): PipelinePorts => ({
			log: quiet,
			retrieve: (q, r, th) => m.retrieve(q, r, th),
			memory: storeMemory({ openStore: () => m.openStore(), embedder: () => m.embedder(), workspaceIds: ids }),
			persist: storePersist({
				openStore: () => m.openStore(),
				embedder: () => m.embedder(),
				workspaceIds: ids,
				thresholds: () => DEFAULT_THRESHOLDS,
			}),
		});
		const turn = (turnId: string, generator: Generator): PipelineTurn =>
			pipelineTurn({ turnId, utterance: QUESTION, generator, conversationId: 'c-faults' });
		const storedTurnRows = async (turnId: string) =>
			(
				await (
					await memory.openStore()
				).db.query<{ n: number }>('SELECT count(*)::int AS n FROM conversation_turns WHERE turn_id = $1', [turnId])
			)[0].n;

		before(async () => {
			base = mkdtempSync(join(tmpdir(), 'gmem-turnfault-'));
			ws = join(base, 'ws');
			mkdirSync(join(ws, 'src'), { recursive: true });
			writeFileSync(
				join(ws, 'src', 'config.ts'),
				'export function parseConfig(text: string) {\n\ttry {\n\t\treturn JSON.parse(text);\n\t} catch {\n\t\treturn null; // invalid JSON input\n\t}\n}\n',
			);
			writeFileSync(
				join(ws, 'src', 'money.ts'),
				'export function formatEuro(cents: number): string {\n\treturn `€${(cents / 100).toFixed(2)}`;\n}\n',
			);
			const created = await engine.create();
			dispose = created.dispose;
			location = created.location;
			models = new FlakyRerankerRuntime({
				log: quiet,
				cacheDir: join(base, 'models'),
				settings: () => DEFAULT_MODEL_SETTINGS,
			});
			memory = folderMemory(location, ws, {
				models,
			});
			const [r] = await memory.indexFolders([ws]);
			assert.equal(r.files_indexed, 2);
			stub = await startOpenAiStub({ port: 0 });
		});
		afterEach(() => (models.rerankFails = false));
		after(async () => {
			await stub?.close();
			await memory?.dispose();
			await dispose?.();
			rmSync(base, { recursive: true, force: true });
		});

		it('a reranker that throws: the rerank stage passes through with the reason, the turn still answers with the evidence cited', async () => {
			// Control: the same turn with the reranker working reranks with the model.
			const ok = await runPipeline(portsOver(memory), turn('rr-ok', new EvidenceOnlyGenerator()), sink);
			assert.equal(ok.kind, 'reply');
			assert.equal(ok.trace?.steps.find((s) => s.kind === 'rerank')?.status, 'model');

			models.rerankFails = true;
			const out = await runPipeline(portsOver(memory), turn('rr-fail', new EvidenceOnlyGenerator()), sink);
			assert.equal(out.kind, 'reply', JSON.stringify(out).slice(0, 300));
			if (out.kind !== 'reply') return;
			const rerank = out.trace.steps.find((s) => s.kind === 'rerank');
			assert.ok(
				rerank && rerank.status === 'passthrough' && /reranker failed: reranker session lost/.test(rerank.reason ?? ''),
				JSON.stringify(rerank),
			);
			assert.equal(out.status, 'done');
			assert.ok(
				out.citations.some((c) => c.label.startsWith('src/config.ts')),
				`the evidence is still quoted and cited: ${JSON.stringify(out.citations)}`,
			);
		});

		it('the store closed right after the decision: each store stage notes its failure, the model still answers, persisting never rejects', async () => {
			// A second window's handle on the same store, so closing it leaves the suite's store open.
			const fragile = new WorkspaceMemory({ log: quiet, location: () => location, folders: () => [ws] });
			try {
				const store = await fragile.openStore();
				await store.db.query('SELECT 1');
				await store.close();
				const out = await runPipeline(
					portsOver(fragile),
					turn('closed-1', new OpenAiGenerator({ baseUrl: stub.url, model: 'stub-fast', apiKey: null })),
					sink,
				);
				assert.equal(out.kind, 'reply', JSON.stringify(out).slice(0, 300));
				if (out.kind !== 'reply') return;
				const said = notes(out.trace);
				assert.ok(
					said.some((n) => n.startsWith('error: ') && /pool|closed|end/i.test(n)),
					`the workspace search noted the failure: ${said.join(' | ')}`,
				);
				assert.ok(
					said.some((n) => /standing instructions not read/.test(n)),
					said.join(' | '),
				);
				assert.equal(out.status, 'done');
				assert.match(out.markdown, /Searching the workspace failed/, 'the reply says the workspace was not searched');
				const persisted = await out.persist();
				assert.ok(
					notes({ ...out.trace, steps: persisted }).some((n) => /^error: not saved to memory/.test(n)),
					JSON.stringify(persisted),
				);
			} finally {
				await fragile.dispose();
			}
		});

		it(`every connection to the store cut while the model streams (${engine.name === 'pglite' ? 'owner killed' : 'backends terminated'}): the reply arrives with its citations and is saved after reconnecting`, async () => {
			const model = new OpenAiGenerator({ baseUrl: stub.url, model: 'stub-cite', apiKey: null });
			// The cut happens after retrieval answered and before persisting: the generator's turn.
			const cutting: Generator = {
				info: model.info,
				generate: async (r) => (await cutStore(location), model.generate(r)),
			};
			const out = await runPipeline(portsOver(memory), turn('cut-1', cutting), sink);
			assert.equal(out.kind, 'reply', JSON.stringify(out).slice(0, 300));
			if (out.kind !== 'reply') return;
			assert.equal(out.status, 'done');
			assert.ok(
				out.citations.some((c) => c.label.startsWith('src/config.ts')),
				JSON.stringify(out.citations),
			);
			const persisted = await out.persist();
			assert.ok(
				!notes({ ...out.trace, steps: persisted }).some((n) => /not saved/.test(n)),
				`saved after reconnecting: ${JSON.stringify(persisted)}`,
			);
			assert.equal(await storedTurnRows('cut-1'), 2, 'user and assistant rows in the conversation tier');
		});
	});
}
