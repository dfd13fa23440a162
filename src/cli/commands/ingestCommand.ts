/**
 * `gmem ingest FILE.jsonl [--tier workspace|research] [--text-field text] [--workspace DIR]`:
 * bulk-loads documents (CONTRACT.md). One row = one document, chunked when long; re-ingesting an
 * id replaces it. Bad rows are reported with their line number and skipped; the run exits 1 if
 * there were any.
 */
import type { ChunkTier } from '../../store/chunkRepo';
import { ingestDocuments, type IngestDoc } from '../../retrieval/ingest';
import { parseCommandArgs } from '../args';
import { EXIT_OK, EXIT_USAGE, UsageError, type CliCommand, type CliIo } from '../cliTypes';
import { readLines } from '../jsonl';
import { openCliEmbedder, STORE_OPTIONS, withStore, workspaceOf } from '../storeCli';

const USAGE = `usage: gmem ingest FILE.jsonl [--tier workspace|research] [--text-field text] [--workspace DIR]
                   [--embedder builtin|minilm|hashing|none] [--db PATH|URL] [--scope NAME] [--json]

Loads documents into the store. Rows: {"id", "text" (or the field named), "path"?, "metadata"?}.
Re-ingesting an id replaces it. FILE "-" reads standard input.
  --embedder X  the vector arm's model (default builtin, as in the extension, or $GMEM_EMBEDDER);
                hashing is a TEST embedder (not semantic), none stores no vectors
  --json   print {"documents", "chunks", "ms"}`;

const OPTIONS = {
	...STORE_OPTIONS,
	tier: { type: 'string', default: 'workspace' },
	'text-field': { type: 'string', default: 'text' },
	workspace: { type: 'string' },
	embedder: { type: 'string' },
} as const;

/** Parses one JSON line into a document, or returns why it cannot be one. */
export function parseIngestRow(text: string, textField: string): IngestDoc | string {
	let v: unknown;
	try {
		v = JSON.parse(text);
	} catch (e) {
		return `not JSON: ${e instanceof Error ? e.message : String(e)}`;
	}
	if (!v || typeof v !== 'object' || Array.isArray(v)) return 'a row must be a JSON object';
	const row = v as Record<string, unknown>;
	const id = typeof row.id === 'number' ? String(row.id) : row.id;
	if (typeof id !== 'string' || !id) return '"id" must be a non-empty string';
	if (typeof row[textField] !== 'string') return `"${textField}" must be a string`;
	if (row.path !== undefined && row.path !== null && typeof row.path !== 'string') return '"path" must be a string';
	if (row.metadata !== undefined && (typeof row.metadata !== 'object' || Array.isArray(row.metadata)))
		return '"metadata" must be an object';
	const path = typeof row.path === 'string' ? row.path.replace(/\\/g, '/') : null;
	return { id, text: row[textField] as string, path, metadata: (row.metadata as Record<string, unknown>) ?? {} };
}

async function run(argv: string[], io: CliIo): Promise<number> {
	const { values, positionals } = parseCommandArgs(argv, OPTIONS);
	if (positionals.length !== 1) throw new UsageError('expected exactly one FILE.jsonl');
	const tier = values.tier as ChunkTier;
	if (tier !== 'workspace' && tier !== 'research') throw new UsageError('--tier must be workspace or research');
	const docs: IngestDoc[] = [];
	let bad = 0;
	for await (const { line, text } of readLines(positionals[0], io)) {
		const parsed = parseIngestRow(text, values['text-field']);
		if (typeof parsed === 'string') {
			bad++;
			io.stderr(`gmem ingest: line ${line}: ${parsed}\n`);
		} else docs.push(parsed);
	}
	const { embedder, dispose } = await openCliEmbedder(values.embedder, io);
	const started = performance.now();
	const stats = await withStore(values, io, (store) =>
		ingestDocuments(store.db, docs, { workspaceId: workspaceOf(values.workspace, io), tier }, embedder, (done) =>
			io.stderr(`\rgmem ingest: ${done}/${docs.length} documents`),
		),
	).finally(dispose);
	if (docs.length) io.stderr('\n');
	const ms = Math.round(performance.now() - started);
	if (values.json) io.stdout(JSON.stringify({ documents: stats.documents, chunks: stats.chunks, ms }) + '\n');
	else io.stdout(`ingested ${stats.documents} documents (${stats.chunks} chunks) into ${tier} in ${ms} ms\n`);
	return bad ? EXIT_USAGE : EXIT_OK;
}

export const ingestCommand: CliCommand = {
	name: 'ingest',
	summary: 'Load JSON Lines documents into the store',
	usage: USAGE,
	run,
};
