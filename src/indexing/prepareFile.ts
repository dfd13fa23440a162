/**
 * One file from disk to the rows it becomes: decode, redact secrets, chunk, and hash. The file
 * hash is the cache key of the whole file (chunker settings included, so changing a chunk-size
 * threshold re-chunks everything); each chunk's hash covers the exact text that is embedded, so
 * an unchanged chunk of a changed file keeps its stored vector.
 */
import { createHash } from 'node:crypto';
import type { Thresholds } from '../core/thresholds';
import { searchTextFor } from '../retrieval/codeTokens';
import { chunkFile } from './chunkFile';
import type { ChunkLimits, FileChunk } from './chunkTypes';
import { readText, type DecodeLimits, type SkipReason } from './fileText';
import { redactSecrets } from './secretScan';

/** Bump when chunk boundaries, headers or redaction change for the same settings. */
export const CHUNKER_VERSION = 1;

/** The indexing thresholds, grouped for the code that uses them. */
export interface IndexSettings {
	limits: ChunkLimits;
	decode: DecodeLimits;
	maxFileBytes: number;
	embedBatch: number;
}

/** Settings from the thresholds table. */
export function indexSettings(t: Thresholds): IndexSettings {
	return {
		limits: { maxLines: t.index_chunk_max_lines, maxChars: t.index_chunk_max_chars, overlapLines: t.index_chunk_overlap_lines, minLines: t.index_chunk_min_lines },
		decode: { sniffBytes: t.index_binary_sniff_bytes, maxControlRatio: t.index_max_control_ratio },
		maxFileBytes: t.index_max_file_bytes,
		embedBatch: t.index_embed_batch,
	};
}

/** Part of every file hash: the chunker version and the settings that shape chunks. */
export function chunkerKey(s: IndexSettings): string {
	return `v${CHUNKER_VERSION}:${JSON.stringify(s.limits)}:${JSON.stringify(s.decode)}`;
}

/** SHA-256, hex. */
export function sha256(data: string | Uint8Array): string {
	return createHash('sha256').update(data).digest('hex');
}

/** A chunk with what is indexed for it: the text embedded, the text searched, and its hash. */
export interface PreparedChunk extends FileChunk {
	embedText: string;
	searchText: string;
	hash: string;
}

/** A file ready to be written. */
export interface PreparedFile {
	relPath: string;
	fileHash: string;
	mtimeMs: number;
	size: number;
	encoding: string;
	structure: string;
	/** Secrets redacted, by kind (never the values). */
	redacted: Record<string, number>;
	chunks: PreparedChunk[];
}

/** Reads and prepares one file; a file that cannot be read or decoded is a skip with its reason. */
export async function prepareFile(
	entry: { relPath: string; absPath: string; mtimeMs: number; size: number },
	settings: IndexSettings,
): Promise<PreparedFile | { skip: SkipReason; detail: string }> {
	const read = await readText(entry.absPath, settings.decode);
	if (!read.ok) return { skip: read.reason, detail: read.detail };
	const fileHash = sha256(Buffer.concat([Buffer.from(chunkerKey(settings) + '\0'), read.bytes ?? Buffer.from(read.text)]));
	return { ...(await prepareText(entry.relPath, read.text, settings.limits)), fileHash, mtimeMs: entry.mtimeMs, size: entry.size, encoding: read.encoding };
}

/** Redacts, chunks and hashes a text (also used for unsaved editor buffers). */
export async function prepareText(relPath: string, text: string, limits: ChunkLimits): Promise<Pick<PreparedFile, 'relPath' | 'structure' | 'redacted' | 'chunks'>> {
	const { text: clean, found } = redactSecrets(text, relPath);
	const chunked = await chunkFile(relPath, clean, limits);
	const chunks = chunked.chunks.map((c) => {
		const embedText = `${c.header}\n${c.content}`;
		return { ...c, embedText, searchText: searchTextFor(embedText, relPath), hash: sha256(embedText) };
	});
	return { relPath, structure: chunked.structure, redacted: found, chunks };
}
