/**
 * The extension host's retrieval path against a real PGlite store (through its owner process):
 * WorkspaceMemory indexes a temp workspace in the indexing worker thread (lexical-only), then a
 * ChatController turn searches it, runs the evidence stage and replies with cited chunks.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveThresholds, type Thresholds } from '../../src/core/thresholds';
import type { RetrievalStep } from '../../src/core/trace';
import { decideTurn } from '../../src/core/decide';
import type { WorkspaceMemory } from '../../src/chat/workspaceMemory';
import { testEngines } from '../fixtures/store_engines';
import { writeDemoSources } from '../fixtures/demoWorkspace';
import { recordingChat, type RecordingChat } from '../fixtures/recordingChat';
import { folderMemory } from '../fixtures/folderMemory';

const [pglite] = testEngines();

describe('extension: workspace retrieval in a chat turn (PGlite)', function () {
	this.timeout(120_000);
	let base: string;
	let ws: string;
	let dispose: () => Promise<void>;
	let memory: WorkspaceMemory;
	let thresholds: Thresholds;
	let chat: RecordingChat;

	before(async () => {
		base = mkdtempSync(join(tmpdir(), 'gmem-ext-'));
		ws = join(base, 'ws');
		writeDemoSources(ws);
		const created = await pglite.create();
		dispose = created.dispose;
		const t = resolveThresholds({});
		assert.ok(t.ok);
		thresholds = t.value;
		memory = folderMemory(created.location, ws);
		chat = recordingChat(memory, () => thresholds);
	});
	after(async () => {
		await memory?.dispose();
		await dispose?.();
		rmSync(base, { recursive: true, force: true });
	});

	it('opens nothing until used', () => {
		assert.equal(memory.opened, false);
	});

	it('says the workspace is not indexed yet before Index Workspace', async () => {
		const reply = await chat.ask('t1', 'How does parseConfig in src/config.ts handle invalid JSON input?');
		assert.match(reply.markdown, /The workspace is not indexed yet/);
		assert.match(reply.markdown, /Index Workspace/);
	});

	it('indexes in the worker, then a turn cites the right file with a retrieval step in the trace', async () => {
		const [r] = await memory.indexFolders([ws]);
		assert.equal(r.files_indexed, 2);
		assert.ok(r.chunks >= 2);
		const reply = await chat.ask('t2', 'How does parseConfig in src/config.ts handle invalid JSON input?');
		// Citations are escaped Markdown: src/config\.ts:1\-3
		assert.match(reply.markdown, /src\/config\\\.ts:1\\-3/);
		assert.match(reply.markdown, /```(ts)?\nexport function parseConfig/);
		assert.doesNotMatch(reply.markdown, /money/);
		const kinds = reply.trace.steps.map((s) => s.kind);
		assert.ok(kinds.includes('retrieval') && kinds.includes('evidence'), `steps: ${kinds.join(',')}`);
		const step = reply.trace.steps.find((s) => s.kind === 'retrieval') as RetrievalStep;
		assert.equal(step.tier, 'workspace');
		assert.equal(step.hits[0].path, 'src/config.ts');
		assert.ok(step.hits[0].arms.fts && step.hits[0].arms.fts.rank === 1);
	});

	it('says so honestly when nothing matches', async () => {
		const reply = await chat.ask('t3', 'Where is the zebraquokka webhook retried in the codebase?');
		assert.match(reply.markdown, /Nothing in (this workspace's index|the indexed workspace) matched/);
		assert.ok(reply.trace.steps.some((s) => s.kind === 'retrieval'));
	});

	it('reuses the chunk count between turns until this window writes the index (clear/forget tell it)', async () => {
		const decision = {
			...decideTurn({
				utterance: 'How does formatEuro in src/money.ts format cents?',
				history: [],
				context: { now: Date.now() },
			}),
			retrieve: true,
			tiers: ['workspace' as const],
		};
		const chunks = async () => {
			const r = await memory.retrieve('How does formatEuro in src/money.ts format cents?', decision, thresholds);
			assert.ok(r.status === 'evidence' || r.status === 'no_match', r.status);
			return r.models!.chunks;
		};
		const before = await chunks();
		// indexFolders is a write of this window: the next turn counts again.
		writeFileSync(
			join(ws, 'src', 'tax.ts'),
			'export function addVat(cents: number): number {\n\treturn Math.round(cents * 1.2);\n}\n',
		);
		await memory.indexFolders([ws]);
		const afterIndex = await chunks();
		assert.ok(afterIndex > before, `${afterIndex} > ${before}`);
		// A write the window did not make (another window, gmem) is not seen while the count is fresh…
		const store = await memory.openStore();
		await store.db.query("DELETE FROM chunks WHERE tier = 'workspace' AND path = $1", ['src/tax.ts']);
		assert.equal(await chunks(), afterIndex);
		// …until the command that wrote tells it.
		memory.indexChanged();
		assert.equal(await chunks(), before);
	});

	it('a turn with a fresh chunk count of the folders sends no "is this folder indexed" statement', async () => {
		const decision = {
			...decideTurn({ utterance: 'How does formatEuro format cents?', history: [], context: { now: Date.now() } }),
			retrieve: true,
			tiers: ['workspace' as const],
		};
		const db = (await memory.openStore()).db as {
			query: (sql: string, params?: readonly unknown[]) => Promise<object[]>;
		};
		const query = db.query;
		const seen: string[] = [];
		db.query = (sql, params) => {
			seen.push(sql);
			return query.call(db, sql, params);
		};
		const turn = async () => {
			seen.length = 0;
			const r = await memory.retrieve('How does formatEuro format cents?', decision, thresholds);
			assert.ok(r.status === 'evidence' || r.status === 'no_match', r.status);
			return seen.filter((q) => q.includes('SELECT EXISTS (SELECT 1 FROM documents')).length;
		};
		try {
			memory.indexChanged();
			assert.equal(await turn(), 1, 'no count yet: the statement runs');
			assert.equal(await turn(), 0, 'the count of the folders is fresh and found chunks');
			memory.indexChanged();
			assert.equal(await turn(), 1, 'a write of this window drops the count');
		} finally {
			db.query = query;
		}
	});
});
