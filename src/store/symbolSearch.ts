/**
 * The symbol arm's SQL: definitions whose normalised leaf name is one of the query's, inside the
 * tier / scope / workspace pre-filter, with their chunk. Ranking is done by the caller (it knows
 * which identifier was written how); this only bounds the rows per name.
 */
import type { ArmRow, SearchScope } from './searchQueries';
import type { Queryable } from './queryable';
import { scopeOf } from './queryable';

/** A definition and the chunk it starts in. */
export interface SymbolRow extends ArmRow {
	def_name: string;
	def_kind: string;
	def_start: number;
	def_end: number;
	norm_leaf: string;
	norm_name: string;
}

/**
 * Definitions named any of `leaves` (already normalised), at most `perName` per name — or, per
 * leaf, the number in `limits` (same order as `leaves`) when given.
 */
export async function symbolDefinitions(
	db: Queryable,
	scope: SearchScope,
	leaves: readonly string[],
	perName: number,
	limits?: readonly number[],
): Promise<SymbolRow[]> {
	if (!leaves.length) return [];
	if (limits && limits.length !== leaves.length) throw new Error('symbolDefinitions: one limit per leaf');
	return db.query<SymbolRow>(
		`SELECT c.id::text AS chunk_pk, c.doc_id, c.chunk_no, c.path, c.start_line, c.end_line, c.symbol, c.content, 0::float8 AS score,
			s.name AS def_name, s.kind AS def_kind, s.start_line AS def_start, s.end_line AS def_end, s.norm_leaf, s.norm_name
		 FROM unnest($3::text[], $5::int[]) AS q(leaf, lim) CROSS JOIN LATERAL (
			SELECT x.chunk_id, x.name, x.kind, x.start_line, x.end_line, x.norm_leaf, x.norm_name FROM symbols x
			WHERE x.tier = $1 AND x.norm_leaf = q.leaf AND x.scope = $4 AND ($2::text[] IS NULL OR x.workspace_id = ANY($2::text[]))
			ORDER BY x.path, x.start_line LIMIT q.lim) s
		 JOIN chunks c ON c.id = s.chunk_id`,
		[
			scope.tier,
			scope.workspaceIds,
			[...leaves],
			scope.scope ?? scopeOf(db),
			limits ? [...limits] : leaves.map(() => perName),
		],
	);
}
