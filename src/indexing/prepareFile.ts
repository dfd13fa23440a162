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

/**
 * Bump when chunk boundaries, headers, redaction or what is stored with a chunk change for the
 * same settings. 2: definitions for the symbol table (an old index re-chunks once to fill it).
 */
export const CHUNKER_VERSION = 2;

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
		limits: {
			maxLines: t.index_chunk_max_lines,
			maxChars: t.index_chunk_max_chars,
			overlapLines: t.index_chunk_overlap_lines,
			minLines: t.index_chunk_min_lines,
		},
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

/**
 * Minified or machine-written text: at least this many bytes with fewer than one newline per
 * `MINIFIED_BYTES_PER_LINE` of them. Hand-written lines average well under 100 characters; a
 * one-line bundle would only become thousands of one-line windows (and seconds of regex and parse
 * work) that nobody searches for. Checked on the bytes, before decoding or chunking.
 */
export const MINIFIED_MIN_BYTES = 64 * 1024;
export const MINIFIED_BYTES_PER_LINE = 1000;

/** The minified-file rule above: a skip detail, or null. */
export function minifiedDetail(bytes: Uint8Array): string | null {
	if (bytes.length < MINIFIED_MIN_BYTES) return null;
	let lines = 1;
	for (let at = bytes.indexOf(0x0a); at !== -1; at = bytes.indexOf(0x0a, at + 1)) lines++;
	return bytes.length / lines > MINIFIED_BYTES_PER_LINE ? `minified: ${bytes.length} bytes in ${lines} line(s)` : null;
}

/**
 * Reads and prepares one file; never throws for the file's sake: a file that cannot be read,
 * decoded or chunked is a skip with its reason (`chunker_error` carries the exception's message).
 */
export async function prepareFile(
	entry: { relPath: string; absPath: string; mtimeMs: number; size: number },
	settings: IndexSettings,
): Promise<PreparedFile | { skip: SkipReason; detail: string }> {
	const read = await readText(entry.absPath, settings.decode, settings.maxFileBytes);
	if (!read.ok) return { skip: read.reason, detail: read.detail };
	const raw = read.bytes ?? Buffer.from(read.text);
	const minified = minifiedDetail(raw);
	if (minified) return { skip: 'generated', detail: minified };
	const fileHash = sha256(Buffer.concat([Buffer.from(chunkerKey(settings) + '\0'), raw]));
	let text: Awaited<ReturnType<typeof prepareText>>;
	try {
		text = await prepareText(entry.relPath, read.text, settings.limits);
	} catch (e) {
		return { skip: 'chunker_error', detail: e instanceof Error ? e.message : String(e) };
	}
	return { ...text, fileHash, mtimeMs: entry.mtimeMs, size: entry.size, encoding: read.encoding };
}

/** Redacts, chunks and hashes a text (also used for unsaved editor buffers). */
export async function prepareText(
	relPath: string,
	text: string,
	limits: ChunkLimits,
): Promise<Pick<PreparedFile, 'relPath' | 'structure' | 'redacted' | 'chunks'>> {
	const { text: clean, found } = redactSecrets(text, relPath);
	const chunked = await chunkFile(relPath, clean, limits);
	const chunks = chunked.chunks.map((c) => {
		const embedText = `${c.header}\n${c.content}`;
		return { ...c, embedText, searchText: searchTextFor(embedText, relPath), hash: sha256(embedText) };
	});
	return { relPath, structure: chunked.structure, redacted: found, chunks };
}
