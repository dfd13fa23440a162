/**
 * Bulk-load measurement (not a test) on a PGlite store through its owner: N synthetic chunks with
 * 384-d hashing-embedder vectors, loaded either with the HNSW index maintained per insert
 * ("incremental") or with the index dropped first and built after the load ("build-after").
 * Reports load and index time, the store folder and its pg_wal before and after ANALYZE +
 * CHECKPOINT (analyzeChunks) and, for completeness, after VACUUM.
 *   npx tsx bench/benchBulkLoad.ts [--n 20000] [--mode incremental|build-after]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { HashingEmbedder } from '../src/models/hashingEmbedder';
import { codeTokens } from '../src/retrieval/codeTokens';
import { prepareDocuments, type IngestDoc } from '../src/retrieval/ingest';
import { analyzeChunks, checkpoint, upsertDocuments } from '../src/store/chunkRepo';
import { openStore } from '../src/store/openStore';
import { stopOwner } from '../src/store/ownerClient';
import { folderBytes } from '../src/store/storeStats';

function docs(n: number): IngestDoc[] {
	let seed = 7;
	const r = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
	const word = () =>
		'bcdfghklmnprstvz'[Math.floor(r() * 16)] +
		'aeiou'[Math.floor(r() * 5)] +
		'bcdfghklmnprstvz'[Math.floor(r() * 16)] +
		'aeiou'[Math.floor(r() * 5)];
	const line = () => Array.from({ length: 6 }, () => `${word()}_${word()}`).join(' ');
	return Array.from({ length: n }, (_, i) => ({
		id: `c${i}`,
		text: `def ${word()}_${word()}(x):\n${Array.from({ length: 8 }, () => `    ${line()}`).join('\n')}`,
		path: `src/m${i % 300}/f${i}.py`,
	}));
}

const mb = (b: number) => Math.round(b / 1048576);

async function main(): Promise<void> {
	const { values } = parseArgs({
		options: {
			n: { type: 'string', default: '20000' },
			mode: { type: 'string', default: 'incremental' },
			'checkpoint-every': { type: 'string', default: '0' },
		},
	});
	const checkpointEvery = Number(values['checkpoint-every']);
	const n = Number(values.n);
	const dir = mkdtempSync(join(tmpdir(), 'gmem-bulk-'));
	const opened = await openStore({ kind: 'folder', dir });
	if (!opened.ok) throw opened.error;
	const db = opened.value.db;
	const embedder = new HashingEmbedder(384, codeTokens);
	const all = docs(n);
	const out: Record<string, unknown> = { mode: values.mode, chunks: n };
	const t0 = performance.now();
	if (values.mode === 'build-after') await db.query('DROP INDEX chunks_embedding');
	// Load without the per-ingest ANALYZE/CHECKPOINT so the WAL left by the load itself is measured.
	const wal = () => mb(folderBytes(join(dir, 'pgdata', 'pg_wal')));
	let peakWal = 0;
	for (let i = 0; i < all.length; i += 500) {
		await upsertDocuments(
			db,
			await prepareDocuments(all.slice(i, i + 500), { workspaceId: 'bench', tier: 'workspace' }, embedder),
		);
		if (checkpointEvery && (i + 500) % checkpointEvery === 0) await checkpoint(db);
		peakWal = Math.max(peakWal, wal());
		process.stderr.write(`\r  ${Math.min(n, i + 500)}/${n} ${Math.round((performance.now() - t0) / 1000)} s`);
	}
	process.stderr.write('\n');
	out.load_s = Math.round((performance.now() - t0) / 100) / 10;
	if (values.mode === 'build-after') {
		const t1 = performance.now();
		await db.query('CREATE INDEX chunks_embedding ON chunks USING hnsw (embedding vector_cosine_ops)');
		out.index_build_s = Math.round((performance.now() - t1) / 100) / 10;
	}
	out.total_s = Math.round((performance.now() - t0) / 100) / 10;
	out.chunks_per_s = Math.round(n / ((performance.now() - t0) / 1000));
	out.checkpoint_every = checkpointEvery || null;
	out.peak_wal_mb = peakWal;
	out.before = { disk_mb: mb(folderBytes(dir)), wal_mb: wal() };
	const t2 = performance.now();
	await analyzeChunks(db);
	out.analyze_checkpoint_s = Math.round((performance.now() - t2) / 100) / 10;
	out.after_checkpoint = { disk_mb: mb(folderBytes(dir)), wal_mb: wal() };
	const t3 = performance.now();
	await db.query('VACUUM chunks, chunk_terms, term_df, corpus_stats, documents');
	await db.query('CHECKPOINT');
	out.vacuum_s = Math.round((performance.now() - t3) / 100) / 10;
	out.after_vacuum = { disk_mb: mb(folderBytes(dir)), wal_mb: wal() };
	process.stdout.write(JSON.stringify(out) + '\n');
	await opened.value.close();
	await stopOwner(dir);
	rmSync(dir, { recursive: true, force: true });
}

main().then(
	() => process.exit(0),
	(e: unknown) => {
		process.stderr.write(`benchBulkLoad: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
		process.exit(1);
	},
);
