/**
 * Migration 3: the symbol table (issue 15 item 2). One row per definition the tree-sitter chunker
 * found — qualified name (`Class.method`), kind, lines — pointing at the chunk it starts in, so the
 * symbol arm can answer "where is send_file defined" with an index probe instead of a text search.
 * Rows go with their chunk (ON DELETE CASCADE): a re-index, forget or clear never leaves a stale
 * definition. `norm_leaf` / `norm_name` are lower-cased with `_` and `$` removed, so `send_file`,
 * `sendFile` and `SendFile` meet; the qualifier is matched in code, against name and path.
 */

export const SCHEMA_003 = `
CREATE TABLE symbols (
	id bigserial PRIMARY KEY,
	chunk_id bigint NOT NULL REFERENCES chunks ON DELETE CASCADE,
	scope text NOT NULL,
	workspace_id text NOT NULL,
	tier text NOT NULL,
	path text,
	name text NOT NULL,
	norm_leaf text NOT NULL,
	norm_name text NOT NULL,
	kind text NOT NULL,
	start_line int NOT NULL,
	end_line int NOT NULL
);
-- The arm's probe: a normalised leaf name within a tier, scope and workspace filtered from the entry.
CREATE INDEX symbols_leaf ON symbols (tier, norm_leaf) INCLUDE (scope, workspace_id, chunk_id);
-- The cascade from chunks.
CREATE INDEX symbols_chunk ON symbols (chunk_id);
-- A pasted trace's frames: indexed files by file name (frameChunks.ts uses the same expression).
CREATE INDEX documents_basename ON documents (tier, (regexp_replace(path, '^.*/', ''))) INCLUDE (scope, workspace_id, path);
`;
