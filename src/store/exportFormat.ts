/**
 * The memory export file (format "gated-memory-export", version 1; documented in docs/storage.md)
 * and its validator. Validation runs over every row before anything is written, and names the
 * first bad field by its path ("research_memory[3].kind: …"), so a malformed file changes nothing.
 */

/** The format tag and the one version this build reads and writes. */
export const EXPORT_FORMAT = 'gated-memory-export';
export const EXPORT_VERSION = 1;

/** One stored chunk, as written (vectors are not exported). */
export interface ExportChunk {
	chunk_no: number;
	path: string | null;
	start_line: number | null;
	end_line: number | null;
	symbol: string | null;
	kind: string | null;
	language: string | null;
	content: string;
	content_hash: string;
	search_text: string;
}

/** A workspace file or a research memory's searchable document, with its chunks. */
export interface ExportDocument {
	workspace_id: string;
	tier: 'workspace' | 'research';
	doc_id: string;
	path: string | null;
	content_hash: string;
	mtime_ms: number | null;
	metadata: Record<string, unknown>;
	chunks: ExportChunk[];
}

export interface ExportResearchMemory {
	workspace_id: string;
	doc_id: string;
	kind: 'qa' | 'decision' | 'correction' | 'note';
	question: string | null;
	content: string;
	content_hash: string;
	source_turn: string | null;
	created_at: string;
	updated_at: string;
	/** The doc_id of the memory that replaced this one (ids are per-store; doc ids are stable). */
	superseded_by: string | null;
	merged_count: number;
}

export interface ExportProfileEntry {
	workspace_id: string;
	key: string;
	value: string;
	kind: 'fact' | 'preference' | 'instruction';
	source_turn: string | null;
	valid_from: string;
	valid_to: string | null;
}

export interface ExportTurn {
	workspace_id: string;
	conversation_id: string;
	turn_id: string;
	role: 'user' | 'assistant';
	content: string;
	trace: unknown;
	created_at: string;
}

/** The whole file. */
export interface MemoryExport {
	format: typeof EXPORT_FORMAT;
	version: typeof EXPORT_VERSION;
	exported_at: string;
	schema_version: number;
	/** Always false in version 1: vectors belong to the embedder that made them and are recomputed. */
	vectors: false;
	workspaces: string[];
	documents: ExportDocument[];
	research_memory: ExportResearchMemory[];
	profile_entries: ExportProfileEntry[];
	conversation_turns: ExportTurn[];
}

/** A malformed export file; `message` names the field. */
export class ExportFormatError extends Error {
	override readonly name = 'ExportFormatError';
}

type Check = (v: unknown) => string | null;

const str: Check = (v) => (typeof v === 'string' ? null : 'expected a string');
const nonEmpty: Check = (v) => (typeof v === 'string' && v.length > 0 ? null : 'expected a non-empty string');
const int: Check = (v) => (typeof v === 'number' && Number.isSafeInteger(v) ? null : 'expected an integer');
const finite: Check = (v) => (typeof v === 'number' && Number.isFinite(v) ? null : 'expected a number');
const nullable =
	(c: Check): Check =>
	(v) =>
		v === null ? null : c(v);
const oneOf =
	(values: readonly string[]): Check =>
	(v) =>
		typeof v === 'string' && values.includes(v) ? null : `expected one of ${values.join(', ')}`;
const object: Check = (v) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? null : 'expected an object');
const anyJson: Check = () => null;
// Postgres-readable ISO 8601 with an explicit zone (what the exporter writes).
const timestamp: Check = (v) =>
	typeof v === 'string' &&
	/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?(Z|[+-]\d\d:?\d\d)$/.test(v) &&
	!Number.isNaN(Date.parse(v.replace(/(\.\d{3})\d+/, '$1')))
		? null
		: 'expected an ISO 8601 timestamp with a time zone';

function checkRow(where: string, row: unknown, fields: Record<string, Check>): void {
	if (object(row)) throw new ExportFormatError(`${where}: expected an object`);
	const r = row as Record<string, unknown>;
	for (const [name, check] of Object.entries(fields)) {
		const problem = check(r[name]);
		if (problem) throw new ExportFormatError(`${where}.${name}: ${problem}`);
	}
}

function list(where: string, v: unknown): unknown[] {
	if (!Array.isArray(v)) throw new ExportFormatError(`${where}: expected an array`);
	return v;
}

const CHUNK: Record<string, Check> = {
	chunk_no: int,
	path: nullable(str),
	start_line: nullable(int),
	end_line: nullable(int),
	symbol: nullable(str),
	kind: nullable(str),
	language: nullable(str),
	content: str,
	content_hash: str,
	search_text: str,
};
const DOCUMENT: Record<string, Check> = {
	workspace_id: nonEmpty,
	tier: oneOf(['workspace', 'research']),
	doc_id: nonEmpty,
	path: nullable(str),
	content_hash: str,
	mtime_ms: nullable(finite),
	metadata: object,
};
const MEMORY: Record<string, Check> = {
	workspace_id: nonEmpty,
	doc_id: nonEmpty,
	kind: oneOf(['qa', 'decision', 'correction', 'note']),
	question: nullable(str),
	content: str,
	content_hash: str,
	source_turn: nullable(str),
	created_at: timestamp,
	updated_at: timestamp,
	superseded_by: nullable(nonEmpty),
	merged_count: int,
};
const PROFILE: Record<string, Check> = {
	workspace_id: nonEmpty,
	key: nonEmpty,
	value: str,
	kind: oneOf(['fact', 'preference', 'instruction']),
	source_turn: nullable(str),
	valid_from: timestamp,
	valid_to: nullable(timestamp),
};
const TURN: Record<string, Check> = {
	workspace_id: nonEmpty,
	conversation_id: nonEmpty,
	turn_id: nonEmpty,
	role: oneOf(['user', 'assistant']),
	content: str,
	trace: anyJson,
	created_at: timestamp,
};

/** Parses and validates an export file's text; throws ExportFormatError naming the first problem. */
export function parseMemoryExport(text: string): MemoryExport {
	let data: unknown;
	try {
		data = JSON.parse(text);
	} catch (e) {
		throw new ExportFormatError(`not JSON: ${(e as Error).message}`);
	}
	if (object(data)) throw new ExportFormatError('expected a JSON object at the top level');
	const d = data as Record<string, unknown>;
	if (d.format !== EXPORT_FORMAT)
		throw new ExportFormatError(`format: expected "${EXPORT_FORMAT}", got ${JSON.stringify(d.format ?? null)}`);
	if (d.version !== EXPORT_VERSION)
		throw new ExportFormatError(
			`version: this build reads version ${EXPORT_VERSION}, the file has ${JSON.stringify(d.version ?? null)}`,
		);
	if (d.vectors !== false) throw new ExportFormatError('vectors: version 1 files carry no vectors (expected false)');
	for (const [i, w] of list('workspaces', d.workspaces).entries())
		if (nonEmpty(w)) throw new ExportFormatError(`workspaces[${i}]: expected a non-empty string`);
	for (const [i, doc] of list('documents', d.documents).entries()) {
		checkRow(`documents[${i}]`, doc, DOCUMENT);
		const chunks = list(`documents[${i}].chunks`, (doc as Record<string, unknown>).chunks);
		for (const [j, c] of chunks.entries()) checkRow(`documents[${i}].chunks[${j}]`, c, CHUNK);
	}
	const memories = list('research_memory', d.research_memory);
	for (const [i, m] of memories.entries()) checkRow(`research_memory[${i}]`, m, MEMORY);
	for (const [i, p] of list('profile_entries', d.profile_entries).entries())
		checkRow(`profile_entries[${i}]`, p, PROFILE);
	for (const [i, t] of list('conversation_turns', d.conversation_turns).entries())
		checkRow(`conversation_turns[${i}]`, t, TURN);
	checkSupersession(memories as ExportResearchMemory[]);
	unique('research_memory', memories as ExportResearchMemory[], (m) => [m.workspace_id, m.doc_id]);
	unique('conversation_turns', d.conversation_turns as ExportTurn[], (t) => [
		t.workspace_id,
		t.conversation_id,
		t.turn_id,
		t.role,
	]);
	return data as MemoryExport;
}

// One row per key: the import upserts by these keys, and a key twice in one statement is an error.
function unique<T>(table: string, rows: readonly T[], key: (r: T) => string[]): void {
	const seen = new Set<string>();
	rows.forEach((r, i) => {
		const k = JSON.stringify(key(r));
		if (seen.has(k))
			throw new ExportFormatError(`${table}[${i}]: duplicate of an earlier row (${key(r).slice(1).join(', ')})`);
		seen.add(k);
	});
}

// A superseded_by must name a memory of the same workspace in the file: ids do not travel.
function checkSupersession(memories: readonly ExportResearchMemory[]): void {
	const known = new Set(memories.map((m) => JSON.stringify([m.workspace_id, m.doc_id])));
	memories.forEach((m, i) => {
		if (m.superseded_by !== null && !known.has(JSON.stringify([m.workspace_id, m.superseded_by]))) {
			throw new ExportFormatError(`research_memory[${i}].superseded_by: no memory "${m.superseded_by}" in this file`);
		}
	});
}
