/**
 * The extension's model path with real onnxruntime-node on generated BERT-shaped models (tiny,
 * random weights) in a local model folder, against both store engines: indexing in the worker
 * writes the active embedder's vectors, a chat turn runs the vector arm and the reranker, a
 * missing model degrades to lexical-only with a plain note, and changing the embedder re-embeds
 * without ever mixing vectors of two models in a search.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveThresholds, type Thresholds } from '../../src/core/thresholds';
import type { NoteStep, RerankStep, RetrievalStep, TraceStep } from '../../src/core/trace';
import { ModelsRuntime, type ModelSettings } from '../../src/chat/modelsRuntime';
import type { WorkspaceMemory } from '../../src/chat/workspaceMemory';
import type { ModelManifest } from '../../src/models/manifests';
import { mustOpen, testEngines } from '../fixtures/store_engines';
import { tempDir, tinyManifest, writeTinyModel } from '../fixtures/models/tinyModels';
import { quietLogger as quiet } from '../fixtures/hostDoubles';
import { writeDemoSources } from '../fixtures/demoWorkspace';
import { recordingChat, workspaceEmbedders, type RecordingChat } from '../fixtures/recordingChat';
import { folderMemory } from '../fixtures/folderMemory';

const QUESTION = 'How does parseConfig in src/config.ts handle invalid JSON input?';
const notes = (steps: TraceStep[]) => steps.filter((s): s is NoteStep => s.kind === 'note').map((s) => s.message);

for (const engine of testEngines()) {
	describe(`extension: models in a chat turn (${engine.name}, real onnxruntime)`, function () {
		this.timeout(180_000);
		let tmp: ReturnType<typeof tempDir>;
		let ws: string;
		let models: ModelsRuntime;
		let memory: WorkspaceMemory;
		let dispose: () => Promise<void>;
		let location: Parameters<typeof mustOpen>[0];
		let thresholds: Thresholds;
		const settings: ModelSettings = {
			embedder: 'minilm',
			reranker: 'minilm',
			hubEndpoint: 'http://127.0.0.1:9',
			localPath: '',
		};
		const manifests: { embedder: ModelManifest; reranker: ModelManifest } = {
			embedder: tinyManifest('embedder'),
			reranker: tinyManifest('reranker'),
		};
		const missingOffers: string[][] = [];
		let staleSignals = 0;
		let ask: (id: string) => ReturnType<RecordingChat['ask']>;
		const embeddersInStore = () => workspaceEmbedders(location);

		before(async () => {
			tmp = tempDir('extmodels');
			ws = join(tmp.dir, 'ws');
			writeDemoSources(ws);
			const local = join(tmp.dir, 'models');
			writeTinyModel(join(local, 'test', 'tiny-embedder'), 'embedder');
			writeTinyModel(join(local, 'test', 'tiny-reranker'), 'reranker');
			settings.localPath = local;
			const created = await engine.create();
			dispose = created.dispose;
			location = created.location;
			const t = resolveThresholds({});
			assert.ok(t.ok);
			thresholds = t.value;
			models = new ModelsRuntime({ log: quiet, cacheDir: join(tmp.dir, 'cache'), settings: () => settings, manifests });
			memory = folderMemory(created.location, ws, {
				models,
				onModelsMissing: (m) => missingOffers.push(m.map((x) => x.name)),
				onStaleVectors: () => staleSignals++,
			});
			const chat = recordingChat(memory, () => thresholds);
			ask = (id) => chat.ask(id, QUESTION);
		});
		after(async () => {
			await memory?.dispose();
			await models?.dispose();
			await dispose?.();
			tmp?.cleanup();
		});

		it('indexes with the ONNX embedder in the worker: every chunk carries its vectors', async () => {
			const [r] = await memory.indexFolders([ws]);
			assert.equal(r.files_indexed, 2);
			assert.deepEqual(await embeddersInStore(), [{ embedder: 'test/tiny-embedder@r1', n: r.chunks }]);
		});

		it('a chat turn runs the vector arm with that embedder and the reranker on the pool', async () => {
			const reply = await ask('m1');
			const step = reply.trace.steps.find((s) => s.kind === 'retrieval') as RetrievalStep;
			assert.equal(step.arm_mode, 'hybrid');
			assert.ok(
				step.hits.some((h) => h.arms.vector !== null),
				'some hit came from the vector arm',
			);
			assert.ok(
				notes(reply.trace.steps).some(
					(n) => n.startsWith('vector arm: test/tiny-embedder@r1') && n.includes('2 of 2 chunks'),
				),
				notes(reply.trace.steps).join(' | '),
			);
			const rerank = reply.trace.steps.find((s) => s.kind === 'rerank') as RerankStep;
			assert.equal(rerank.status, 'model', rerank.reason);
			assert.equal(rerank.pairs, step.hits.length);
			assert.ok((await memory.embedder())?.id === 'test/tiny-embedder@r1');
			assert.deepEqual(missingOffers, []);
		});

		it('changing the embedder searches lexical-only until re-embedded, then only the new vectors', async () => {
			manifests.embedder = { ...tinyManifest('embedder'), revision: 'r2' };
			const before = await ask('m2');
			const step = before.trace.steps.find((s) => s.kind === 'retrieval') as RetrievalStep;
			assert.equal(step.arm_mode, 'fts');
			assert.ok(step.hits.every((h) => h.arms.vector === null));
			assert.ok(
				notes(before.trace.steps).some((n) => /lexical-only: no chunk has test\/tiny-embedder@r2 vectors yet/.test(n)),
			);
			assert.equal(staleSignals, 1, 'the host was told to re-embed');
			const done = await memory.reembedIfNeeded();
			assert.ok(done, 're-embedding ran');
			assert.deepEqual(
				await embeddersInStore(),
				[{ embedder: 'test/tiny-embedder@r2', n: 2 }],
				'no vectors of the old model remain',
			);
			assert.equal(await memory.reembedIfNeeded(), null, 'nothing left to re-embed');
			const after = await ask('m3');
			assert.equal((after.trace.steps.find((s) => s.kind === 'retrieval') as RetrievalStep).arm_mode, 'hybrid');
			assert.ok(notes(after.trace.steps).some((n) => n.startsWith('vector arm: test/tiny-embedder@r2')));
			assert.equal(staleSignals, 1, 'fully embedded: no further re-embed signal');
		});

		it('a missing model degrades to lexical-only and passthrough, says so, and offers the download once', async () => {
			settings.localPath = join(tmp.dir, 'empty');
			mkdirSync(settings.localPath, { recursive: true });
			const reply = await ask('m4');
			const step = reply.trace.steps.find((s) => s.kind === 'retrieval') as RetrievalStep;
			assert.equal(step.arm_mode, 'fts');
			assert.equal(step.hits[0].path, 'src/config.ts');
			const text = notes(reply.trace.steps);
			assert.ok(
				text.some((n) => /lexical-only: tiny-embedder is not downloaded/.test(n)),
				text.join(' | '),
			);
			assert.ok(
				text.some((n) => /no reranking: tiny-reranker is not downloaded/.test(n)),
				text.join(' | '),
			);
			assert.equal((reply.trace.steps.find((s) => s.kind === 'rerank') as RerankStep).status, 'passthrough');
			assert.match(reply.markdown, /src\/config\\\.ts/);
			await ask('m5');
			assert.deepEqual(missingOffers, [['tiny-embedder', 'tiny-reranker']]);
		});

		it('"none" turns both models off with a plain note', async () => {
			settings.embedder = 'none';
			settings.reranker = 'none';
			const reply = await ask('m6');
			const text = notes(reply.trace.steps);
			assert.ok(
				text.some((n) => /lexical-only: no embedder: gatedMemory.models.embedder is "none"/.test(n)),
				text.join(' | '),
			);
			assert.ok(text.some((n) => /no reranking: reranker off/.test(n)));
			assert.equal(await memory.embedder(), null);
		});
	});
}

for (const engine of testEngines()) {
	describe(`extension: the built-in embedder, then a switch to an ONNX model (${engine.name})`, function () {
		this.timeout(180_000);
		let tmp: ReturnType<typeof tempDir>;
		let ws: string;
		let models: ModelsRuntime;
		let memory: WorkspaceMemory;
		let dispose: () => Promise<void>;
		let location: Parameters<typeof mustOpen>[0];
		let thresholds: Thresholds;
		const settings: ModelSettings = {
			embedder: 'builtin',
			reranker: 'none',
			hubEndpoint: 'http://127.0.0.1:9',
			localPath: '',
		};
		const embedders = async () => (await workspaceEmbedders(location)).map((r) => r.embedder);
		const turn = async () => (await recordingChat(memory, () => thresholds).ask('b1', QUESTION)).trace.steps;

		before(async () => {
			tmp = tempDir('extbuiltin');
			ws = join(tmp.dir, 'ws');
			mkdirSync(join(ws, 'src'), { recursive: true });
			writeFileSync(
				join(ws, 'src', 'config.ts'),
				'export function parseConfig(text: string) {\n\treturn JSON.parse(text);\n}\n',
			);
			const local = join(tmp.dir, 'models');
			writeTinyModel(join(local, 'test', 'tiny-embedder'), 'embedder');
			settings.localPath = local;
			const created = await engine.create();
			dispose = created.dispose;
			location = created.location;
			const t = resolveThresholds({});
			assert.ok(t.ok);
			thresholds = t.value;
			models = new ModelsRuntime({
				log: quiet,
				cacheDir: join(tmp.dir, 'cache'),
				settings: () => settings,
				manifests: { embedder: tinyManifest('embedder'), reranker: tinyManifest('reranker') },
			});
			memory = folderMemory(created.location, ws, {
				models,
			});
		});
		after(async () => {
			await memory?.dispose();
			await models?.dispose();
			await dispose?.();
			tmp?.cleanup();
		});

		it('indexes and searches with the built-in embedder (no download, no model folder)', async () => {
			const active = await memory.activeEmbedder();
			assert.equal(active.status, 'ready', active.status === 'none' ? active.reason : '');
			await memory.indexFolders([ws]);
			assert.deepEqual(await embedders(), ['gmem-static-code-v2']);
			const steps = await turn();
			assert.ok(
				notes(steps).some((n) => n.startsWith('vector arm: gmem-static-code-v2 (built-in)')),
				notes(steps).join(' | '),
			);
			assert.equal((steps.find((s) => s.kind === 'retrieval') as RetrievalStep).arm_mode, 'hybrid');
		});

		it('switching to the ONNX model replaces every built-in vector', async () => {
			settings.embedder = 'minilm';
			assert.ok(await memory.reembedIfNeeded());
			assert.deepEqual(await embedders(), ['test/tiny-embedder@r1']);
			const steps = await turn();
			assert.ok(
				notes(steps).some((n) => n.startsWith('vector arm: test/tiny-embedder@r1')),
				notes(steps).join(' | '),
			);
		});
	});
}
