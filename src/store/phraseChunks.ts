/**
 * Chunks holding a phrase word for word (the raising site of a pasted error's message:
 * src/retrieval/raiseSite.ts). One phrase query per phrase over the full-text GIN index
 * (positions checked, so `no attribute` does not match `attribute … no`), inside the tier / scope /
 * workspace pre-filter, all inputs as parameters.
 */
import type { ArmRow, SearchScope } from './searchQueries';
import type { Queryable } from './queryable';
import { scopeOf } from './queryable';

/** A chunk and the (0-based) indexes of the phrases it holds. */
export interface PhraseRow extends ArmRow {
	matched: number[];
}

/** At most `perPhrase` chunks per phrase, each with every phrase it matched. */
export async function chunksWithPhrases(
	db: Queryable,
	scope: SearchScope,
	phrases: readonly string[],
	perPhrase: number,
): Promise<PhraseRow[]> {
	if (!phrases.length || perPhrase <= 0) return [];
	// The per-phrase cap is a window, not a LIMIT in a LATERAL: with a LIMIT the planner walks the
	// primary key (or the heap) testing every chunk's tsv — 220 ms a traceback at 20k chunks on PGlite —
	// where without one it takes the GIN index per phrase (bitmap scan, ~8 ms).
	const rows = await db.query<PhraseRow>(
		`SELECT x.chunk_pk, x.doc_id, x.chunk_no, x.path, x.start_line, x.end_line, x.symbol, x.content, 0::float8 AS score,
			array_agg(x.i - 1 ORDER BY x.i) AS matched
		 FROM (
			SELECT c.id::text AS chunk_pk, c.doc_id, c.chunk_no, c.path, c.start_line, c.end_line, c.symbol, c.content, q.i,
				row_number() OVER (PARTITION BY q.i ORDER BY c.id) AS rn
			FROM unnest($3::text[]) WITH ORDINALITY AS q(phrase, i)
			JOIN chunks c ON c.tsv @@ phraseto_tsquery('english', q.phrase)
			WHERE c.tier = $1 AND c.scope = $4 AND ($2::text[] IS NULL OR c.workspace_id = ANY($2::text[]))) x
		 WHERE x.rn <= $5
		 GROUP BY x.chunk_pk, x.doc_id, x.chunk_no, x.path, x.start_line, x.end_line, x.symbol, x.content`,
		[scope.tier, scope.workspaceIds, [...phrases], scope.scope ?? scopeOf(db), perPhrase],
	);
	return rows.map((r) => ({ ...r, matched: (r.matched ?? []).map(Number) }));
}
