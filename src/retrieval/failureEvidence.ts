/**
 * A pasted failure in the turn (issue 15 item 4): its frames are mapped to workspace files by the
 * longest path-suffix match (site-packages, node_modules, GOPATH, the cargo registry, a CI
 * runner's absolute paths all end in the repository's own relative path), the chunks covering
 * their lines are fetched as exact evidence (innermost first), and the arms search the error's
 * type and message, the frames' function names and the user's own words instead of the paths.
 */
import type { SearchScope } from '../store/searchQueries';
import type { Queryable } from '../store/queryable';
import { frameCandidates, type FrameCandidateRow } from '../store/frameChunks';
import type { ArmRow } from '../store/searchQueries';
import { chunksWithPhrases, type PhraseRow } from '../store/phraseChunks';
import { framesReachRaise, messagePhrases, rankRaiseSites, type RaiseSite } from './raiseSite';
import type { RetrievalTuning } from './retrievalThresholds';
import {
	functionLeaf,
	matchFramePath,
	parseFailure,
	slash,
	withFolder,
	type ParsedFailure,
	type StackFrame,
} from './stackFrames';

/** A frame that points into the workspace, with its chunk. */
export interface WorkspaceFrame {
	frame: StackFrame;
	path: string;
	row: ArmRow;
}

/** What the failure gave the search. */
export interface FailureEvidence {
	parsed: ParsedFailure;
	frames: WorkspaceFrame[];
	/** The text the arms search instead of the raw paste (null: no frames, search the turn as typed). */
	searchText: string | null;
	/** The message's literal phrases and the chunks that hold them, best first (raiseSite.ts). */
	phrases: string[];
	raiseSites: RaiseSite<PhraseRow>[];
	/** Whether the innermost workspace frame's own line raises (else the raising site goes first). */
	framesReachRaise: boolean;
	/** Whether the phrases were looked up: not when the innermost frame raises (nothing would be pinned). */
	raiseSitesLookedUp: boolean;
}

// Frames of the language runtime and standard library (rustc's, Node's internals, CPython's own lib, GOROOT).
const RUNTIME_FRAME =
	/^(\/rustc\/|node:|internal\/)|\/library\/(std|core|alloc)\/|\/lib\/python\d[.\d]*\/(?!site-packages|dist-packages)|\/go\/src\/(runtime|testing|reflect)\/|^(runtime|testing)\//;
const GENERIC_FUNCTIONS = new Set([
	'main',
	'module',
	'anonymous',
	'unwrap',
	'expect',
	'Object',
	'Module',
	'Function',
	'rust_begin_unwind',
	'panic_fmt',
	'unwrap_failed',
	'processTicksAndRejections',
]);

const word = (text: string, w: string) =>
	new RegExp(`(^|[^A-Za-z0-9_$])${w.replace(/[$]/g, '\\$')}([^A-Za-z0-9_$]|$)`).test(text);

/** What the turn's text alone says about a pasted failure: no store needed, so the arms need not wait for the lookups. */
export interface FailurePlan {
	parsed: ParsedFailure;
	/** The text the arms search instead of the raw paste (null: no frames, search the turn as typed). */
	searchText: string | null;
	/** The message's literal phrases the raising-site lookup searches (raiseSite.ts). */
	phrases: string[];
	/** At most this many frames are fetched (0: none). */
	max: number;
}

type FailureTuning = Pick<RetrievalTuning, 'raise_site_max' | 'raise_site_phrase_words' | 'raise_site_per_phrase'>;

/** Parses the turn: the error, its frames, the phrases of its message and the text the arms search. */
export function planFailure(query: string, max: number, tuning?: FailureTuning): FailurePlan {
	const parsed = parseFailure(query);
	// The raising site: only for an error the parser recognised (a type, or a Go panic), by its message.
	const phrases =
		tuning && tuning.raise_site_max > 0 && parsed.errorType
			? messagePhrases(parsed.errorMessage, tuning.raise_site_phrase_words, 4)
			: [];
	if (!parsed.frames.length || max <= 0) return { parsed, searchText: null, phrases, max };
	// Function names worth searching: not the runtime's own frames, not entry points every program has.
	const functions = [
		...new Set(
			parsed.frames
				.filter((f) => !RUNTIME_FRAME.test(f.path))
				.map((f) => functionLeaf(f.func))
				.filter((f): f is string => !!f && !GENERIC_FUNCTIONS.has(f)),
		),
	];
	const searchText = [parsed.rest, parsed.errorType, parsed.errorMessage, ...functions].filter(Boolean).join('\n');
	return { parsed, searchText, phrases, max };
}

/**
 * The plan's store lookups: with frames, maps them and fetches their chunks (at most `max`) in one
 * statement; with phrases, the chunks holding them — after the frames, and only when the innermost
 * frame does not raise (else nothing would be pinned: raiseSitePins). A one-segment match
 * (`loaders.py` for `…/site-packages/jinja2/loaders.py`) counts only when the chunk at that line
 * names the frame's function: every package has an `__init__.py`.
 */
export async function failureLookups(
	db: Queryable,
	scope: SearchScope,
	plan: FailurePlan,
	tuning?: FailureTuning,
	folderNames: readonly string[] = [],
): Promise<FailureEvidence> {
	const { parsed, phrases, searchText, max } = plan;
	const sites = async (): Promise<RaiseSite<PhraseRow>[]> =>
		phrases.length
			? rankRaiseSites(phrases, await chunksWithPhrases(db, scope, phrases, tuning!.raise_site_per_phrase))
			: [];
	if (!parsed.frames.length || max <= 0)
		return {
			parsed,
			frames: [],
			searchText: null,
			phrases,
			raiseSites: await sites(),
			framesReachRaise: false,
			raiseSitesLookedUp: phrases.length > 0,
		};
	const rows = await frameCandidates(
		db,
		scope,
		parsed.frames.map((f) => ({
			basename: f.path.split('/').pop()!,
			segments: slash(f.path).split('/').filter(Boolean).join('/'),
			line: f.line,
		})),
	);
	const frames: WorkspaceFrame[] = [];
	for (const [i, frame] of parsed.frames.entries()) {
		const mine = rows.filter((r) => r.frame === i);
		const m = matchFramePath(
			frame.path,
			mine.map((r) => r.want_path),
		);
		const row = m && mine.find((r) => r.want_path === m.path)!;
		if (!m || !row || row.chunk_pk === null) continue;
		const leaf = functionLeaf(frame.func);
		const printedSegments = frame.path.split('/').filter(Boolean).length;
		const named = leaf !== null && (word(row.content, leaf) || word(row.symbol ?? '', leaf));
		// withFolder never lowers the count: it is read only for a one-segment match.
		if (m.segments < 2 && printedSegments > 1 && !named && withFolder(frame.path, m, folderNames) < 2) continue;
		if (frames.some((f) => f.row.chunk_pk === row.chunk_pk)) continue;
		frames.push({ frame, path: m.path, row: armRow(row) });
		if (frames.length >= max) break;
	}
	const innermost = frames[0] ? { ...frames[0].row, line: frames[0].frame.line } : null;
	const reach = framesReachRaise(innermost);
	return {
		parsed,
		frames,
		searchText,
		phrases,
		raiseSites: reach ? [] : await sites(),
		framesReachRaise: reach,
		raiseSitesLookedUp: !reach && phrases.length > 0,
	};
}

/** The chunk columns of a frame candidate row (what the pins and the evidence read). */
function armRow(r: FrameCandidateRow & ArmRow): ArmRow {
	const { chunk_pk, doc_id, chunk_no, path, start_line, end_line, symbol, content, score } = r;
	return { chunk_pk, doc_id, chunk_no, path, start_line, end_line, symbol, content, score };
}

/** Parses the turn and runs its lookups (planFailure, then failureLookups). */
export function failureEvidence(
	db: Queryable,
	scope: SearchScope,
	query: string,
	max: number,
	tuning?: FailureTuning,
): Promise<FailureEvidence> {
	return failureLookups(db, scope, planFailure(query, max, tuning), tuning);
}

/**
 * The raising-site chunks to pin, at most `max`: none when the frames reach the raise (their
 * innermost chunk is it) or when the best site is already a frame's chunk.
 */
export function raiseSitePins(e: FailureEvidence, max: number): PhraseRow[] {
	if (e.framesReachRaise || max <= 0) return [];
	const frameChunks = new Set(e.frames.map((f) => f.row.chunk_pk));
	return e.raiseSites
		.slice(0, max)
		.filter((s) => !frameChunks.has(s.chunk.chunk_pk))
		.map((s) => s.chunk);
}

/** The trace line. */
export function describeFailure(e: FailureEvidence): string {
	const p = e.parsed;
	const err = p.errorType
		? `${p.errorType}${p.errorMessage ? `: ${p.errorMessage.slice(0, 80)}` : ''}`
		: 'no error line';
	const where = e.frames.map((f) => `${f.path}:${f.frame.line}`).join(', ');
	return `pasted failure: ${p.frames.length} frame(s), ${err}; ${e.frames.length} in the workspace${where ? ` (${where})` : ''}, fetched as exact evidence`;
}

/** The raising-site trace line (null when the message gave no phrase). */
export function describeRaiseSite(e: FailureEvidence, pinned: readonly PhraseRow[]): string | null {
	if (!e.phrases.length) return null;
	const quoted = e.phrases.map((p) => `"${p}"`).join(', ');
	if (!e.raiseSitesLookedUp)
		return `raising site: not looked up for ${quoted}; the innermost frame raises, frames lead`;
	if (!e.raiseSites.length) return `raising site: no implementation chunk holds ${quoted}`;
	const best = e.raiseSites[0].chunk;
	const at = `${best.path ?? best.doc_id}:${best.start_line ?? '?'}`;
	if (pinned.length) return `raising site: ${at} holds ${quoted}; no frame reaches the raise, so it leads the evidence`;
	return `raising site: ${at} holds ${quoted}; ${e.framesReachRaise ? 'the innermost frame raises, frames lead' : 'already a frame'}`;
}
