/**
 * Migration 2: a user/team `scope` on every row (server mode: several users share one database;
 * an embedded store keeps everything in 'local'). Existing rows get 'local' — adding a column with
 * a constant default rewrites nothing. Keys, uniqueness and the indexes the filters use gain the
 * scope as their leading column, so every filter stays an index condition applied before ranking.
 */

export const SCHEMA_002 = `
ALTER TABLE documents ADD COLUMN scope text NOT NULL DEFAULT 'local';
ALTER TABLE chunks ADD COLUMN scope text NOT NULL DEFAULT 'local';
ALTER TABLE chunk_terms ADD COLUMN scope text NOT NULL DEFAULT 'local';
ALTER TABLE term_df ADD COLUMN scope text NOT NULL DEFAULT 'local';
ALTER TABLE corpus_stats ADD COLUMN scope text NOT NULL DEFAULT 'local';
ALTER TABLE research_memory ADD COLUMN scope text NOT NULL DEFAULT 'local';
ALTER TABLE profile_entries ADD COLUMN scope text NOT NULL DEFAULT 'local';
ALTER TABLE conversation_turns ADD COLUMN scope text NOT NULL DEFAULT 'local';

-- Migration 1's unnamed UNIQUE constraints and the chunks → documents foreign key: their
-- generated names differ between server versions (long names are truncated), so find them.
DO $$
DECLARE r record;
BEGIN
	FOR r IN SELECT conrelid::regclass::text AS tbl, conname FROM pg_constraint
		WHERE (contype = 'f' AND conrelid = 'chunks'::regclass AND confrelid = 'documents'::regclass)
			OR (contype = 'u' AND conrelid IN ('chunks'::regclass, 'research_memory'::regclass, 'conversation_turns'::regclass))
	LOOP
		EXECUTE format('ALTER TABLE %I DROP CONSTRAINT %I', r.tbl, r.conname);
	END LOOP;
END $$;

ALTER TABLE documents DROP CONSTRAINT documents_pkey;
ALTER TABLE documents ADD PRIMARY KEY (scope, workspace_id, tier, doc_id);
ALTER TABLE chunks ADD UNIQUE (scope, workspace_id, tier, doc_id, chunk_no);
ALTER TABLE chunks ADD FOREIGN KEY (scope, workspace_id, tier, doc_id) REFERENCES documents ON DELETE CASCADE;
ALTER TABLE term_df DROP CONSTRAINT term_df_pkey;
ALTER TABLE term_df ADD PRIMARY KEY (tier, term, scope, workspace_id);
ALTER TABLE corpus_stats DROP CONSTRAINT corpus_stats_pkey;
ALTER TABLE corpus_stats ADD PRIMARY KEY (scope, workspace_id, tier);
ALTER TABLE research_memory ADD UNIQUE (scope, workspace_id, doc_id);
ALTER TABLE conversation_turns ADD UNIQUE (scope, workspace_id, conversation_id, turn_id, role);

DROP INDEX documents_path;
CREATE INDEX documents_path ON documents (scope, workspace_id, path);
DROP INDEX chunks_scope;
CREATE INDEX chunks_scope ON chunks (scope, workspace_id, tier);
DROP INDEX chunks_path;
CREATE INDEX chunks_path ON chunks (scope, workspace_id, path);
-- The candidate scan filters scope and workspace from the index entry (no heap visit).
DROP INDEX chunk_terms_impact;
CREATE INDEX chunk_terms_impact ON chunk_terms (tier, term, (tf::float8 / greatest(doc_len, 1)) DESC) INCLUDE (scope, workspace_id, chunk_id);
DROP INDEX research_current;
CREATE INDEX research_current ON research_memory (scope, workspace_id, content_hash) WHERE superseded_by IS NULL;
DROP INDEX profile_current;
CREATE UNIQUE INDEX profile_current ON profile_entries (scope, workspace_id, key) WHERE valid_to IS NULL;
DROP INDEX turns_recent;
CREATE INDEX turns_recent ON conversation_turns (scope, workspace_id, created_at DESC);
`;
