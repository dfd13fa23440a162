/**
 * Writing prepared files: vectors are reused for chunks whose hash the store already holds (same
 * embedder), only the rest are embedded, in batches; then each file's rows are replaced in one
 * transaction per batch through the store's `upsertDocuments` — and if the database rejects the
 * batch, file by file (isolatedWrite.ts), so one bad file never loses the others.
 */
import type { Embedder } from '../models/embedder';
import type { DocumentInput } from '../store/chunkRepo';
import type { Queryable } from '../store/queryable';
import { INDEX_SOURCE, storedChunkVectors } from './indexStore';
import { upsertIsolated, type WriteFailure } from './isolatedWrite';
import type { PreparedFile } from './prepareFile';

/** What one write did. */
export interface BatchOutcome {
	chunks: number;
	/** Chunks sent to the embedder. */
	embedded: number;
	/** Chunks whose stored vector was reused. */
	reused: number;
	/** Files the database refused (skipped as `write_error`; not stored). */
	failed: WriteFailure[];
}

/** Writes `files` into `workspaceId`; `existing` = doc ids already in the store (worth a vector lookup). */
export async function writeFiles(
	db: Queryable,
	workspaceId: string,
	files: readonly PreparedFile[],
	embedder: Embedder | null,
	existing: ReadonlySet<string>,
	embedBatch: number,
	signal?: AbortSignal,
): Promise<BatchOutcome> {
	if (!files.length) return { chunks: 0, embedded: 0, reused: 0, failed: [] };
	const { docs, embedded, reused } = await embedFiles(db, workspaceId, files, embedder, existing, embedBatch, signal);
	const { chunks, failed } = await upsertIsolated(db, docs, undefined, signal);
	return { chunks, embedded, reused, failed };
}

/**
 * The embedding half of a write: the documents to upsert, vectors reused or computed. Kept apart
 * from the upsert so a caller can embed first and then write several things in one short
 * transaction (embedding inside a transaction would hold it open for seconds).
 */
export async function embedFiles(
	db: Queryable,
	workspaceId: string,
	files: readonly PreparedFile[],
	embedder: Embedder | null,
	existing: ReadonlySet<string>,
	embedBatch: number,
	signal?: AbortSignal,
): Promise<{ docs: DocumentInput[]; embedded: number; reused: number }> {
	const vectors = files.map((f) => new Array<Float32Array | null>(f.chunks.length).fill(null));
	let reused = 0;
	let embedded = 0;
	if (embedder && files.length) {
		const stored = await storedChunkVectors(
			db,
			workspaceId,
			files.filter((f) => existing.has(f.relPath)).map((f) => f.relPath),
			embedder.id,
		);
		const todo: Array<{ file: number; chunk: number; text: string }> = [];
		files.forEach((f, i) =>
			f.chunks.forEach((c, j) => {
				const v = stored.get(f.relPath)?.get(c.hash);
				if (v && v.length === embedder.dim) {
					vectors[i][j] = v;
					reused++;
				} else todo.push({ file: i, chunk: j, text: c.embedText });
			}),
		);
		for (let at = 0; at < todo.length; at += embedBatch) {
			signal?.throwIfAborted();
			const part = todo.slice(at, at + embedBatch);
			const out = await embedder.embed(
				part.map((p) => p.text),
				signal,
			);
			part.forEach((p, k) => (vectors[p.file][p.chunk] = out[k]));
			embedded += part.length;
		}
	}
	const docs: DocumentInput[] = files.map((f, i) => ({
		workspaceId,
		tier: 'workspace',
		docId: f.relPath,
		path: f.relPath,
		contentHash: f.fileHash,
		mtimeMs: f.mtimeMs,
		metadata: {
			source: INDEX_SOURCE,
			size: f.size,
			embedder: embedder?.id ?? null,
			encoding: f.encoding,
			structure: f.structure,
		},
		embedder: embedder?.id ?? null,
		chunks: f.chunks.map((c, j) => ({
			path: f.relPath,
			startLine: c.startLine,
			endLine: c.endLine,
			symbol: c.symbol,
			kind: c.kind,
			language: c.language,
			content: c.content,
			contentHash: c.hash,
			searchText: c.searchText,
			embedding: vectors[i][j],
			...(c.definitions?.length ? { definitions: c.definitions } : {}),
		})),
	}));
	return { docs, embedded, reused };
}
