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

/** A printed frame as the lookup needs it. */
export interface FrameProbe {
	/** The printed path's file name (`path.split('/').pop()`): which indexed files are candidates. */
	basename: string;
	/** The printed path's segments, slash-separated, none empty: what a candidate's path is matched against. */
	segments: string;
	line: number;
}

/** A candidate file of one frame (index `frame` into the probes) and the chunk at its line (null columns: none). */
export type FrameCandidateRow = { frame: number; want_path: string; want_line: number } & (
	ArmRow | { [K in keyof ArmRow]: null }
);

/**
 * The frame-path probe and the chunks at the frames' lines in one statement (they were two round
 * trips): the indexed files named like any frame's file (the documents_basename probe of
 * pathsNamed), for each frame the candidates matching the most trailing segments of its printed
 * path — the whole candidate path, or at least two segments, as matchFramePath counts them; every
 * candidate tied on that count — each with the smallest chunk covering the frame's line. The
 * caller picks among the tied candidates with matchFramePath (its tie-break is by length).
 */
export async function frameCandidates(
	db: Queryable,
	scope: SearchScope,
	frames: readonly FrameProbe[],
): Promise<FrameCandidateRow[]> {
	if (!frames.length) return [];
	return db.query<FrameCandidateRow>(
		`WITH f AS (SELECT (f.i - 1)::int AS i, f.segs, f.line FROM unnest($4::text[], $5::int[]) WITH ORDINALITY AS f(segs, line, i)),
		d AS (
			SELECT DISTINCT d.path FROM (
				SELECT x.path, x.scope, x.workspace_id FROM documents x
				WHERE x.tier = $1 AND regexp_replace(x.path, '^.*/', '') = ANY($3::text[]) OFFSET 0) d
			WHERE d.scope = $6 AND ($2::text[] IS NULL OR d.workspace_id = ANY($2::text[])) AND d.path IS NOT NULL AND d.path <> ''),
		m AS (
			SELECT f.i, f.line, d.path, a.nh, s.n FROM f CROSS JOIN d
			CROSS JOIN LATERAL (SELECT string_to_array(d.path, '/') AS have, string_to_array(f.segs, '/') AS want) w
			CROSS JOIN LATERAL (SELECT cardinality(w.have) AS nh, least(cardinality(w.have), cardinality(w.want)) AS nmax) a
			CROSS JOIN LATERAL (
				SELECT coalesce(min(k), a.nmax) AS n FROM generate_series(0, a.nmax - 1) k
				WHERE w.have[a.nh - k] IS DISTINCT FROM w.want[cardinality(w.want) - k]) s),
		best AS (
			SELECT i, line, path FROM (
				SELECT m.*, max(n) OVER (PARTITION BY i) AS top FROM m WHERE n > 0 AND (n = nh OR n >= 2)) m
			WHERE n = top)
		SELECT b.i AS frame, b.path AS want_path, b.line AS want_line, x.* FROM best b LEFT JOIN LATERAL (
			SELECT c.id::text AS chunk_pk, c.doc_id, c.chunk_no, c.path, c.start_line, c.end_line, c.symbol, c.content, 0::float8 AS score
			FROM chunks c
			WHERE c.tier = $1 AND c.scope = $6 AND ($2::text[] IS NULL OR c.workspace_id = ANY($2::text[]))
				AND c.path = b.path AND c.start_line <= b.line AND c.end_line >= b.line
			ORDER BY c.end_line - c.start_line, c.chunk_no LIMIT 1) x ON true
		ORDER BY b.i, b.path`,
		[
			scope.tier,
			scope.workspaceIds,
			[...new Set(frames.map((f) => f.basename))],
			frames.map((f) => f.segments),
			frames.map((f) => f.line),
			scope.scope ?? scopeOf(db),
		],
	);
}
