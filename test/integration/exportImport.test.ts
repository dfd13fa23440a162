/**
 * Export / import of memory and the memory-state queries, on both engines: a round trip into a
 * fresh store gives the same export, a second import changes nothing, a malformed file (or a row
 * the database rejects) changes nothing, and the panel's counts, forget and clear act on the rows.
 */
import assert from 'node:assert/strict';
import { ingestDocuments } from '../../src/retrieval/ingest';
import {
	exportMemory,
	ExportFormatError,
	importMemory,
	parseMemoryExport,
	type MemoryExport,
} from '../../src/store/exportImport';
import { recordTurn } from '../../src/store/memoryRepo';
import { clearTier, forgetProfileKey, forgetResearchMemory, memoryState } from '../../src/store/memoryState';
import type { Store } from '../../src/store/openStore';
import { mustOpen, suiteStore, testEngines } from '../fixtures/store_engines';
import { writeTurn, type WrittenTrigger } from '../fixtures/turnWriter';

const WS = 'ws-export';
const OTHER = 'ws-other';

async function seed(store: Store): Promise<void> {
	await ingestDocuments(
		store.db,
		[
			{
				id: 'src/retry.ts',
				path: 'src/retry.ts',
				text: 'export function retryWithBackoff(fn: () => Promise<void>) {\n\treturn fn();\n}\n',
				metadata: { source: 'index', embedder: 'x' },
			},
			{ id: 'README.md', path: 'README.md', text: '# Demo\n\nThe API server listens on port 8080.\n' },
		],
		{ workspaceId: WS, tier: 'workspace' },
		null,
	);
	const turn = (turnId: string, question: string, answer: string, trigger: WrittenTrigger) =>
		writeTurn(store.db, null, WS, { turnId, trigger, question, answer });
	await turn('t1', 'Which port does the API server listen on?', 'The API server listens on port 8080.', 'question');
	await turn('t2', 'Actually the API server port is 9090 now, not 8080.', '', 'correction');
	await turn('t3', 'My editor is vim.', '', 'statement');
	await turn('t4', 'My editor is helix.', '', 'statement');
	await turn('t5', 'Always answer in British English.', '', 'instruction');
	const trace = { decision: { trigger: 'question', path: 'rag', tiers: ['workspace'], route: 'rag:workspace' } };
	await recordTurn(store.db, {
		workspaceId: WS,
		conversationId: 'c1',
		turnId: 't1',
		role: 'user',
		content: 'Which port?',
		trace: null,
	});
	await recordTurn(store.db, {
		workspaceId: WS,
		conversationId: 'c1',
		turnId: 't1',
		role: 'assistant',
		content: 'Port 8080 [1]',
		trace,
	});
	// Another workspace's rows must never leak into this workspace's export.
	await recordTurn(store.db, {
		workspaceId: OTHER,
		conversationId: 'c9',
		turnId: 'x',
		role: 'user',
		content: 'elsewhere',
		trace: null,
	});
}

/** The export minus its timestamp, through JSON (what a file holds). */
async function snapshot(store: Store, ids = [WS]): Promise<Omit<MemoryExport, 'exported_at'>> {
	const file: Partial<MemoryExport> = parseMemoryExport(
		JSON.stringify(await exportMemory(store.db, ids, store.schemaVersion)),
	);
	delete file.exported_at;
	return file as Omit<MemoryExport, 'exported_at'>;
}

async function rowCounts(store: Store): Promise<Record<string, number>> {
	const [r] = await store.db.query<Record<string, number>>(`SELECT
		(SELECT count(*)::int FROM documents) AS documents, (SELECT count(*)::int FROM chunks) AS chunks,
		(SELECT count(*)::int FROM chunk_terms) AS postings, (SELECT count(*)::int FROM research_memory) AS research,
		(SELECT count(*)::int FROM profile_entries) AS profile, (SELECT count(*)::int FROM conversation_turns) AS turns`);
	return r;
}

for (const engine of testEngines()) {
	describe(`memory export / import and memory state (${engine.name})`, function () {
		this.timeout(180_000);
		const source = suiteStore(engine, seed);
		const target = suiteStore(engine);

		it('exports the workspace tiers in the versioned format, without vectors or other workspaces', async () => {
			const file = await exportMemory(source().db, [WS], source().schemaVersion);
			assert.equal(file.format, 'gated-memory-export');
			assert.equal(file.version, 1);
			assert.equal(file.vectors, false);
			assert.equal(file.documents.filter((d) => d.tier === 'workspace').length, 2);
			assert.ok(file.documents.every((d) => d.chunks.length > 0 && !('embedder' in d.metadata)));
			assert.equal(file.research_memory.length, 2);
			const superseded = file.research_memory.find((m) => m.superseded_by !== null);
			assert.ok(superseded && /8080/.test(superseded.content), 'the correction supersedes the 8080 memory');
			assert.equal(file.profile_entries.length, 3, 'editor (current + history) and the instruction');
			assert.deepEqual(
				file.conversation_turns.map((t) => t.workspace_id),
				[WS, WS],
			);
			assert.match(file.profile_entries[0].valid_from, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
		});

		it('imports into a fresh store, giving the same export; re-importing changes nothing', async () => {
			const text = JSON.stringify(await exportMemory(source().db, [WS], source().schemaVersion));
			const first = await importMemory(target().db, parseMemoryExport(text));
			assert.equal(first.documents, 3, "2 files + the current memory's document (a superseded memory keeps no chunks)");
			assert.deepEqual(await snapshot(target()), await snapshot(source()));
			const before = await rowCounts(target());
			const again = await importMemory(target().db, parseMemoryExport(text));
			assert.equal(again.profile_entries, 0, 'no profile row is inserted twice');
			assert.deepEqual(
				[again.documents, again.documents_unchanged],
				[0, 3],
				'unchanged documents are left alone (their vectors kept)',
			);
			assert.deepEqual(await rowCounts(target()), before);
			assert.deepEqual(await snapshot(target()), await snapshot(source()));
			// Imported chunks are searchable: the BM25 postings were rebuilt.
			assert.ok(before.postings > 0);
		});

		it('re-importing into the store it came from is idempotent too', async () => {
			const before = await rowCounts(source());
			await importMemory(
				source().db,
				parseMemoryExport(JSON.stringify(await exportMemory(source().db, [WS], source().schemaVersion))),
			);
			assert.deepEqual(await rowCounts(source()), before);
		});

		it('rejects a malformed file, naming the row and field, before writing anything', async () => {
			const file = await exportMemory(source().db, [WS], source().schemaVersion);
			const bad = structuredClone(file) as unknown as { profile_entries: { kind: string }[] };
			bad.profile_entries[1].kind = 'rumour';
			assert.throws(
				() => parseMemoryExport(JSON.stringify(bad)),
				(e: Error) => e instanceof ExportFormatError && /profile_entries\[1\]\.kind: expected one of/.test(e.message),
			);
			assert.throws(
				() => parseMemoryExport('{"format": "gated-memory-export", "version": 2}'),
				/version: this build reads version 1/,
			);
			assert.throws(() => parseMemoryExport('not json'), /not JSON/);
			const dup = structuredClone(file);
			dup.conversation_turns.push(dup.conversation_turns[0]);
			assert.throws(() => parseMemoryExport(JSON.stringify(dup)), /conversation_turns\[2\]: duplicate/);
		});

		it('a row the database rejects rolls the whole import back', async () => {
			const created = await engine.create();
			const fresh = await mustOpen(created.location);
			try {
				const file = parseMemoryExport(JSON.stringify(await exportMemory(source().db, [WS], source().schemaVersion)));
				// A valid JSON integer out of range for an int column: fails after documents and chunks were written.
				file.research_memory[0].merged_count = 2 ** 40;
				await assert.rejects(importMemory(fresh.db, file));
				assert.deepEqual(await rowCounts(fresh), {
					documents: 0,
					chunks: 0,
					postings: 0,
					research: 0,
					profile: 0,
					turns: 0,
				});
			} finally {
				await fresh.close();
				await created.dispose();
			}
		});

		it('imports a one-workspace file into another workspace id', async () => {
			const file = parseMemoryExport(JSON.stringify(await exportMemory(source().db, [WS], source().schemaVersion)));
			await importMemory(target().db, file, { workspaceId: 'ws-moved' });
			const moved = await snapshot(target(), ['ws-moved']);
			assert.equal(moved.documents.length, 3);
			assert.ok(moved.conversation_turns.every((t) => t.workspace_id === 'ws-moved'));
		});

		it('memory state: counts, profile with history, corrections with what they superseded, stored decisions', async () => {
			const s = await memoryState(source().db, [WS]);
			const tier = (t: string) => s.tiers.find((x) => x.tier === t)!;
			assert.equal(tier('workspace').items, 2);
			assert.ok(tier('workspace').bytes > 0 && tier('workspace').lastWrite! > 0);
			assert.equal(tier('research').items, 1, 'one current memory (the other is superseded)');
			assert.equal(tier('profile').items, 2);
			assert.equal(tier('conversation').items, 2, 'the other workspace is not counted');
			assert.equal(s.indexedFiles, 2);
			assert.ok(s.indexedChunks >= 2);
			const editor = s.profile.find((p) => p.key === 'editor')!;
			assert.equal(editor.value, 'helix');
			assert.equal(editor.history, 1);
			assert.ok(s.profile.some((p) => p.kind === 'instruction'));
			assert.equal(s.corrections.length, 1);
			assert.match(s.corrections[0].superseded[0].content, /8080/);
			assert.deepEqual(
				s.decisions.map((d) => [d.turnId, d.route, d.utterance, d.tiers]),
				[['t1', 'rag:workspace', 'Which port?', ['workspace']]],
			);
		});

		it('forgets a profile key and a research memory; clears a tier for the workspace only', async () => {
			const db = target().db;
			assert.equal(await forgetProfileKey(db, WS, 'editor'), 2);
			const mem = (await memoryState(db, [WS])).memories[0];
			assert.equal(await forgetResearchMemory(db, WS, mem.docId), 1);
			assert.ok((await clearTier(db, [WS], 'workspace')) > 0);
			const s = await memoryState(db, [WS]);
			assert.equal(s.tiers.find((t) => t.tier === 'workspace')!.items, 0);
			assert.ok(!s.profile.some((p) => p.key === 'editor'));
			assert.equal(
				(await memoryState(db, ['ws-moved'])).tiers.find((t) => t.tier === 'workspace')!.items,
				2,
				'other workspace untouched',
			);
			await clearTier(db, [WS], 'conversation');
			assert.equal((await memoryState(db, [WS])).tiers.find((t) => t.tier === 'conversation')!.items, 0);
		});
	});
}
