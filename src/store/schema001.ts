/**
 * Migration 1: the four tiers. Kept as plain SQL that both PostgreSQL 15 + pgvector 0.8 and
 * PGlite (PostgreSQL 18 + pgvector 0.8.7) accept.
 */

/** Embedding width of the `vector` columns (MiniLM-L6 and the hashing test embedder: 384). */
export const EMBEDDING_DIM = 384;

export const SCHEMA_001 = `
CREATE TABLE documents (
	workspace_id text NOT NULL,
	tier text NOT NULL CHECK (tier IN ('workspace', 'research')),
	doc_id text NOT NULL,
	path text,
	content_hash text NOT NULL,
	mtime_ms bigint,
	metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
	ingested_at timestamptz NOT NULL DEFAULT now(),
	PRIMARY KEY (workspace_id, tier, doc_id)
);
CREATE INDEX documents_path ON documents (workspace_id, path);

CREATE TABLE chunks (
	id bigserial PRIMARY KEY,
	workspace_id text NOT NULL,
	tier text NOT NULL,
	doc_id text NOT NULL,
	chunk_no int NOT NULL,
	path text,
	start_line int,
	end_line int,
	symbol text,
	kind text,
	language text,
	content text NOT NULL,
	content_hash text NOT NULL,
	-- content plus split identifiers and path parts: what the full-text arm indexes
	search_text text NOT NULL,
	tsv tsvector GENERATED ALWAYS AS (to_tsvector('english', search_text)) STORED,
	-- token count of tsv, for BM25 length normalisation (set at ingest)
	doc_len int NOT NULL DEFAULT 0,
	embedding vector(${EMBEDDING_DIM}),
	embedder text,
	UNIQUE (workspace_id, tier, doc_id, chunk_no),
	FOREIGN KEY (workspace_id, tier, doc_id) REFERENCES documents ON DELETE CASCADE
);
CREATE INDEX chunks_tsv ON chunks USING gin (tsv);
CREATE INDEX chunks_embedding ON chunks USING hnsw (embedding vector_cosine_ops);
CREATE INDEX chunks_scope ON chunks (workspace_id, tier);
CREATE INDEX chunks_path ON chunks (workspace_id, path);

-- BM25 statistics kept at ingest (ts_rank_cd has no document-frequency weighting): one posting
-- per (chunk, lexeme) with its term frequency. Scoring reads only the postings of the query's
-- lexemes instead of unpacking every candidate's tsvector; df = the number of postings.
CREATE TABLE chunk_terms (
	tier text NOT NULL,
	term text NOT NULL,
	workspace_id text NOT NULL,
	chunk_id bigint NOT NULL REFERENCES chunks ON DELETE CASCADE,
	tf int NOT NULL,
	doc_len int NOT NULL
);
-- Impact-ordered postings per term (tf / length, highest first): candidate generation reads a
-- common term's best postings and stops, instead of reading all of them.
CREATE INDEX chunk_terms_impact ON chunk_terms (tier, term, (tf::float8 / greatest(doc_len, 1)) DESC) INCLUDE (workspace_id, chunk_id);
-- (chunk_id, term): per-candidate probes while scoring, and the ON DELETE CASCADE lookups.
CREATE INDEX chunk_terms_chunk ON chunk_terms (chunk_id, term) INCLUDE (tf, doc_len);
-- Document frequency per term, kept with the postings so a query knows which of its terms are
-- selective without counting postings.
CREATE TABLE term_df (
	tier text NOT NULL,
	term text NOT NULL,
	workspace_id text NOT NULL,
	df int NOT NULL,
	PRIMARY KEY (tier, term, workspace_id)
);
CREATE TABLE corpus_stats (
	workspace_id text NOT NULL,
	tier text NOT NULL,
	n_chunks bigint NOT NULL,
	total_len bigint NOT NULL,
	PRIMARY KEY (workspace_id, tier)
);

-- Research memory: the record of Q&A, decisions and corrections. Its searchable text lives in
-- chunks (tier 'research', doc_id = this row's doc_id); a superseded row loses its chunks so it is
-- never retrieved as current, while this row keeps the history.
CREATE TABLE research_memory (
	id bigserial PRIMARY KEY,
	workspace_id text NOT NULL,
	doc_id text NOT NULL,
	kind text NOT NULL CHECK (kind IN ('qa', 'decision', 'correction', 'note')),
	question text,
	content text NOT NULL,
	content_hash text NOT NULL,
	source_turn text,
	created_at timestamptz NOT NULL DEFAULT now(),
	updated_at timestamptz NOT NULL DEFAULT now(),
	superseded_by bigint REFERENCES research_memory (id) ON DELETE SET NULL,
	merged_count int NOT NULL DEFAULT 1,
	UNIQUE (workspace_id, doc_id)
);
CREATE INDEX research_current ON research_memory (workspace_id, content_hash) WHERE superseded_by IS NULL;

CREATE TABLE profile_entries (
	id bigserial PRIMARY KEY,
	workspace_id text NOT NULL,
	key text NOT NULL,
	value text NOT NULL,
	kind text NOT NULL CHECK (kind IN ('fact', 'preference', 'instruction')),
	source_turn text,
	valid_from timestamptz NOT NULL DEFAULT now(),
	-- NULL = the current value; history rows keep the time they were replaced
	valid_to timestamptz
);
CREATE UNIQUE INDEX profile_current ON profile_entries (workspace_id, key) WHERE valid_to IS NULL;

CREATE TABLE conversation_turns (
	id bigserial PRIMARY KEY,
	workspace_id text NOT NULL,
	conversation_id text NOT NULL,
	turn_id text NOT NULL,
	role text NOT NULL CHECK (role IN ('user', 'assistant')),
	content text NOT NULL,
	trace jsonb,
	created_at timestamptz NOT NULL DEFAULT now(),
	UNIQUE (workspace_id, conversation_id, turn_id, role)
);
CREATE INDEX turns_recent ON conversation_turns (workspace_id, created_at DESC);
`;
