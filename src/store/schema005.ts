/**
 * Migration 5: BM25 scored from postings, set-based (issue 15 item 7). `chunk_terms` has been the
 * postings table since schema 001 (term → chunk, tf, doc_len, written at index time with its
 * chunk), but its term-ordered index carried only the chunk id, so scoring looked every candidate
 * up separately (`chunk_terms_chunk`, one index descent per candidate: 624 for three rare terms).
 * The same index now also carries tf and doc_len: one range scan per query term returns that
 * term's postings with everything BM25 needs (an index-only scan once the table is vacuumed), and
 * the candidates' are kept by a hash join (searchQueries.ts). Rebuilding the index is the
 * backfill: every existing posting is in it when the migration commits.
 */

export const SCHEMA_005 = `
DROP INDEX chunk_terms_impact;
CREATE INDEX chunk_terms_impact ON chunk_terms (tier, term, (tf::float8 / greatest(doc_len, 1)) DESC)
	INCLUDE (scope, workspace_id, chunk_id, tf, doc_len);
`;
