/**
 * Ingest: documents (notes, memories, evaluation corpora, files) → chunks with code-aware search
 * text, content hashes and, when an embedder is given, vectors. Re-ingesting a document id
 * replaces it.
 */
import { createHash } from 'node:crypto';
import type { Embedder } from '../models/embedder';
import {
	analyzeChunks,
	upsertDocuments,
	walCheckpointer,
	withBulkVectorIndex,
	type ChunkTier,
	type DocumentInput,
} from '../store/chunkRepo';
import type { Queryable } from '../store/queryable';
import { chunkText, languageOf } from './chunkText';
import { searchTextFor, splitIdentifier } from './codeTokens';

/** One document to ingest (the `gmem ingest` row shape after field selection). */
export interface IngestDoc {
	id: string;
	text: string;
	path?: string | null;
	metadata?: Record<string, unknown>;
	mtimeMs?: number | null;
	kind?: string | null;
}

/** Where ingested documents go. */
export interface IngestTarget {
	workspaceId: string;
	tier: ChunkTier;
}

/** Counts written. */
export interface IngestStats {
	documents: number;
	chunks: number;
}

/** SHA-256 of a text, hex (content hashes for change detection and de-duplication). */
export function contentHash(text: string): string {
	return createHash('sha256').update(text).digest('hex');
}

/** Turns documents into store rows; embeds every chunk in one batch when an embedder is given. */
export async function prepareDocuments(
	docs: readonly IngestDoc[],
	target: IngestTarget,
	embedder: Embedder | null,
): Promise<DocumentInput[]> {
	const prepared = docs.map((d) => ({ doc: d, pieces: chunkText(d.text) }));
	const texts = prepared.flatMap((p) => p.pieces.map((c) => c.content));
	const vectors = embedder && texts.length ? await embedder.embed(texts) : null;
	let v = 0;
	return prepared.map(({ doc, pieces }) => ({
		workspaceId: target.workspaceId,
		tier: target.tier,
		docId: doc.id,
		path: doc.path ?? null,
		contentHash: contentHash(doc.text),
		mtimeMs: doc.mtimeMs ?? null,
		metadata: doc.metadata ?? {},
		embedder: embedder?.id ?? null,
		chunks: pieces.map((c) => ({
			path: doc.path ?? null,
			startLine: c.startLine,
			endLine: c.endLine,
			symbol: c.symbol,
			kind: doc.kind ?? null,
			language: languageOf(doc.path ?? null),
			content: c.content,
			contentHash: contentHash(c.content),
			// The definition's name says most about a chunk: its words count once more.
			searchText: searchTextFor(c.content, doc.path) + (c.symbol ? `\n${splitIdentifier(c.symbol).join(' ')}` : ''),
			embedding: vectors ? vectors[v++] : null,
		})),
	}));
}

/** Bulk writes of at least this many chunks refresh the planner statistics. */
export const ANALYZE_AFTER_CHUNKS = 200;

/** Ingests documents in batches (one transaction per batch); `onProgress` gets documents done. */
export async function ingestDocuments(
	db: Queryable,
	docs: readonly IngestDoc[],
	target: IngestTarget,
	embedder: Embedder | null,
	onProgress?: (done: number) => void,
	batchSize = 100,
): Promise<IngestStats> {
	let chunks = 0;
	// PGlite keeps a load's WAL until a checkpoint: bound it during long loads too.
	const wrote = walCheckpointer(db);
	// A large load builds the HNSW index once at the end instead of per row (docs/storage.md).
	await withBulkVectorIndex(db, embedder ? docs.length : 0, async () => {
		for (let i = 0; i < docs.length; i += batchSize) {
			const batch = await prepareDocuments(docs.slice(i, i + batchSize), target, embedder);
			const written = await upsertDocuments(db, batch);
			chunks += written;
			await wrote(written);
			onProgress?.(Math.min(docs.length, i + batchSize));
		}
	});
	// A bulk load changes the table's shape; small writes (one memory) leave statistics alone.
	if (chunks >= ANALYZE_AFTER_CHUNKS) await analyzeChunks(db);
	return { documents: docs.length, chunks };
}
