/**
 * Exact evidence for a pasted trace: which indexed files could a printed path mean (same file
 * name), and the chunk that covers a given line of a file. Both inside the tier / scope /
 * workspace pre-filter, all inputs as parameters.
 */
import type { ArmRow, SearchScope } from './searchQueries';
import type { Queryable } from './queryable';
import { scopeOf } from './queryable';

/** Indexed paths whose file name is one of `basenames`. */
export async function pathsNamed(db: Queryable, scope: SearchScope, basenames: readonly string[]): Promise<string[]> {
	if (!basenames.length) return [];
	// The file-name probe alone inside (OFFSET 0 keeps it there), so it is always the documents_basename
	// index: offered the workspace filter too, the planner could pick documents_path and run the
	// regexp over every document of the workspace (350 ms at 20k documents on PGlite, bench:chat).
	const rows = await db.query<{ path: string }>(
		`SELECT DISTINCT d.path FROM (
			SELECT x.path, x.scope, x.workspace_id FROM documents x
			WHERE x.tier = $1 AND regexp_replace(x.path, '^.*/', '') = ANY($3::text[]) OFFSET 0) d
		 WHERE d.scope = $4 AND ($2::text[] IS NULL OR d.workspace_id = ANY($2::text[])) AND d.path IS NOT NULL`,
		[scope.tier, scope.workspaceIds, [...basenames], scope.scope ?? scopeOf(db)],
	);
	return rows.map((r) => r.path);
}

/** For each (path, line), the smallest chunk covering that line (none when the line is past the file). */
export async function chunksAtLines(
	db: Queryable,
	scope: SearchScope,
	at: readonly { path: string; line: number }[],
): Promise<(ArmRow & { want_path: string; want_line: number })[]> {
	if (!at.length) return [];
	return db.query(
		`SELECT x.* FROM unnest($3::text[], $4::int[]) AS q(path, line) CROSS JOIN LATERAL (
			SELECT c.id::text AS chunk_pk, c.doc_id, c.chunk_no, c.path, c.start_line, c.end_line, c.symbol, c.content, 0::float8 AS score,
				q.path AS want_path, q.line AS want_line
			FROM chunks c
			WHERE c.tier = $1 AND c.scope = $5 AND ($2::text[] IS NULL OR c.workspace_id = ANY($2::text[]))
				AND c.path = q.path AND c.start_line <= q.line AND c.end_line >= q.line
			ORDER BY c.end_line - c.start_line, c.chunk_no LIMIT 1) x`,
		[scope.tier, scope.workspaceIds, at.map((a) => a.path), at.map((a) => a.line), scope.scope ?? scopeOf(db)],
	);
}
