/**
 * One chunk per named file (its first), for files the ranking knows by path only — a file a bug
 * report names (src/retrieval/mentionedFileArm.ts) that no search arm returned. Inside the tier /
 * scope / workspace pre-filter, all inputs as parameters.
 */
import type { ArmRow, SearchScope } from './searchQueries';
import type { Queryable } from './queryable';
import { scopeOf } from './queryable';

/** The first chunk (lowest chunk number) of each of `paths` that is indexed. */
export async function firstChunks(db: Queryable, scope: SearchScope, paths: readonly string[]): Promise<ArmRow[]> {
	if (!paths.length) return [];
	return db.query<ArmRow>(
		`SELECT x.* FROM unnest($3::text[]) AS q(path) CROSS JOIN LATERAL (
			SELECT c.id::text AS chunk_pk, c.doc_id, c.chunk_no, c.path, c.start_line, c.end_line, c.symbol, c.content, 0::float8 AS score
			FROM chunks c
			WHERE c.tier = $1 AND c.scope = $4 AND ($2::text[] IS NULL OR c.workspace_id = ANY($2::text[])) AND c.path = q.path
			ORDER BY c.chunk_no LIMIT 1) x`,
		[scope.tier, scope.workspaceIds, [...paths], scope.scope ?? scopeOf(db)],
	);
}
