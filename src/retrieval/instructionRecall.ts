/**
 * Instruction files as gated standing instructions. Each section of AGENTS.md & co. is a profile
 * entry (kind 'instruction', scope of the connection, the folder's workspace id) whose key names
 * its source — `file:AGENTS.md § Testing` — and whose source_turn carries the front matter
 * (`instruction-file:{json}`), so no migration is needed. Unlike the instructions a user states
 * in chat, these are not pasted into every prompt: a turn applies a section when its rule says
 * always, when its globs match a file in play, or when it is as similar to the message as a
 * research memory must be (the decision's recall floor, calibrated to the embedder). Each
 * applied section is traced with its file, section and reason.
 */
import type { TraceStep } from '../core/trace';
import type { Embedder } from '../models/embedder';
import type { InstructionSection, ParsedInstructionFile } from '../indexing/instructionFiles';
import { matchingGlobs } from '../indexing/instructionFiles';
import { scopeOf, type Queryable } from '../store/queryable';
import { calibratedFloor } from './evidence/calibration';
import { codeTokens, splitIdentifier } from './codeTokens';
import { salientTerms } from './queryTerms';

/** Key prefix of every instruction-file entry (the instructions stated in chat are keyed `instruction:<hash>`). */
export const FILE_KEY_PREFIX = 'file:';
const META_PREFIX = 'instruction-file:';

/** The profile key of a section: its file and heading. */
export function sectionKey(source: string, title: string): string {
	return `${FILE_KEY_PREFIX}${source} § ${title}`;
}

interface SectionMeta {
	source: string;
	title: string;
	globs: string[];
	alwaysApply: boolean;
	description: string;
}

/** What one sync changed for one workspace folder. */
export interface InstructionSyncReport {
	files: number;
	sections: number;
	added: number;
	removed: number;
	unchanged: number;
}

/**
 * Makes the store hold exactly the given files' sections for `workspaceId`. `files` maps each
 * source to its parse, or to null when the file is gone (its entries are removed). With
 * `complete`, entries of sources not listed are removed too (a full re-read of the folder).
 * A file whose sections did not change is not touched.
 */
export async function syncInstructionFiles(
	db: Queryable,
	workspaceId: string,
	files: ReadonlyMap<string, ParsedInstructionFile | null>,
	complete = false,
): Promise<InstructionSyncReport> {
	const scope = scopeOf(db);
	const report: InstructionSyncReport = { files: 0, sections: 0, added: 0, removed: 0, unchanged: 0 };
	const stored = await db.query<{ key: string; value: string; source_turn: string | null }>(
		`SELECT key, value, source_turn FROM profile_entries WHERE scope = $1 AND workspace_id = $2 AND valid_to IS NULL AND kind = 'instruction' AND starts_with(key, $3)`,
		[scope, workspaceId, FILE_KEY_PREFIX],
	);
	const bySource = new Map<string, { key: string; value: string; source_turn: string | null }[]>();
	for (const r of stored) {
		const source = parseMeta(r.source_turn)?.source;
		if (source === undefined) continue;
		bySource.set(source, [...(bySource.get(source) ?? []), r]);
	}
	const targets = new Map(files);
	if (complete) for (const source of bySource.keys()) if (!targets.has(source)) targets.set(source, null);
	for (const [source, parsed] of targets) {
		const want = parsed ? entries(parsed.sections) : [];
		const have = bySource.get(source) ?? [];
		if (parsed) report.files++;
		report.sections += want.length;
		const same =
			want.length === have.length &&
			want.every((w) => have.some((h) => h.key === w.key && h.value === w.value && h.source_turn === w.meta));
		if (same) {
			report.unchanged += want.length;
			continue;
		}
		await db.transaction(async (tx) => {
			// History rows of file entries are dropped too: the file's own history is in version control.
			await tx.query(
				`DELETE FROM profile_entries WHERE scope = $1 AND workspace_id = $2 AND kind = 'instruction' AND starts_with(key, $3) AND starts_with(coalesce(source_turn, ''), $4)`,
				[scope, workspaceId, FILE_KEY_PREFIX, `${META_PREFIX}${JSON.stringify({ source })}`.slice(0, -1)],
			);
			for (const w of want) {
				await tx.query(
					`INSERT INTO profile_entries (scope, workspace_id, key, value, kind, source_turn) VALUES ($1, $2, $3, $4, 'instruction', $5)`,
					[scope, workspaceId, w.key, w.value, w.meta],
				);
			}
		});
		report.removed += have.length;
		report.added += want.length;
	}
	return report;
}

/** One applied section: the text for the prompt, and why it applies. */
export interface AppliedInstruction {
	source: string;
	title: string;
	text: string;
	why: string;
	score: number;
}

export interface InstructionSelection {
	/** The user's message. */
	query: string;
	/** Workspace-relative files in play: the turn's evidence and the paths the message names. */
	paths: readonly string[];
	embedder: Embedder | null;
	/** The decision's recall floor (qa_min_similarity), in MiniLM cosine units. */
	floor: number;
	/** instruction_sections_per_turn. */
	max: number;
}

/**
 * The instruction-file sections a turn applies: alwaysApply first, then glob matches, then the
 * relevant ones — like research recall, two arms: the cosine at or above the decision's recall
 * floor (calibrated to the embedder), or the words (two of the message's salient terms or their
 * identifier parts among the section's words, or its only one); at most `max`. One note per applied section, one summary note.
 */
export async function selectFileInstructions(
	db: Queryable,
	workspaceIds: readonly string[],
	o: InstructionSelection,
): Promise<{ applied: AppliedInstruction[]; steps: TraceStep[] }> {
	if (!workspaceIds.length) return { applied: [], steps: [] };
	const rows = await db.query<{ key: string; value: string; source_turn: string | null }>(
		`SELECT DISTINCT ON (key) key, value, source_turn FROM profile_entries
		 WHERE scope = $1 AND workspace_id = ANY($2::text[]) AND valid_to IS NULL AND kind = 'instruction' AND starts_with(key, $3)
		 ORDER BY key, valid_from DESC, id DESC`,
		[scopeOf(db), workspaceIds, FILE_KEY_PREFIX],
	);
	const sections = rows.flatMap((r) => {
		const m = parseMeta(r.source_turn);
		return m ? [{ ...m, text: r.value }] : [];
	});
	if (!sections.length) return { applied: [], steps: [] };
	const fixed: AppliedInstruction[] = [];
	const open: typeof sections = [];
	for (const s of sections) {
		if (s.alwaysApply)
			fixed.push({ source: s.source, title: s.title, text: s.text, why: 'alwaysApply in its front matter', score: 1 });
		else if (s.globs.length) {
			const hit = matchingGlobs(s.globs, o.paths)[0];
			if (hit)
				fixed.push({
					source: s.source,
					title: s.title,
					text: s.text,
					why: `glob ${hit.glob} matches ${hit.path}`,
					score: 1,
				});
		} else open.push(s);
	}
	const steps: TraceStep[] = [];
	const similar = await bySimilarity(open, o, steps);
	const applied = [...fixed, ...similar.sort((a, b) => b.score - a.score)].slice(0, o.max);
	const cut = fixed.length + similar.length - applied.length;
	for (const a of applied) steps.push(note('info', `instruction file ${a.source} § ${a.title} applied: ${a.why}`));
	steps.push(
		note(
			'info',
			`instruction files: ${applied.length} of ${sections.length} section${sections.length === 1 ? '' : 's'} applied` +
				(cut > 0 ? ` (${cut} more relevant left out: instruction_sections_per_turn ${o.max})` : '') +
				(applied.length < sections.length ? '; the others do not match this turn' : ''),
		),
	);
	return { applied, steps };
}

/** The prompt line of an applied section: where it comes from, then its text. */
export function instructionText(a: AppliedInstruction): string {
	return `${a.title} (${a.source}): ${a.text}`;
}

/** Workspace-relative paths named in a message (`src/a.ts`, `package.json`), for glob rules. */
export function pathsInMessage(text: string): string[] {
	return [
		...new Set(
			[...text.matchAll(/(?:[\w.-]+\/)*[\w-][\w.-]*\.[A-Za-z0-9]{1,10}\b/g)].map((m) => m[0].replace(/^\.\//, '')),
		),
	];
}

// Embeddings of section texts, per embedder: sections change only when their file does.
const VECTOR_CACHE = new Map<string, Float32Array>();
const VECTOR_CACHE_MAX = 512;

async function bySimilarity(
	open: (SectionMeta & { text: string })[],
	o: InstructionSelection,
	steps: TraceStep[],
): Promise<AppliedInstruction[]> {
	if (!open.length) return [];
	const e = o.embedder && o.embedder.semantic ? o.embedder : null;
	if (!e)
		steps.push(
			note(
				'info',
				`instruction files: no semantic embedder${o.embedder ? ` (${o.embedder.id} is a test embedder)` : ''}, sections matched by shared words only`,
			),
		);
	const cosines = e ? await cosinesOf(e, open, o.query) : null;
	const floor = e ? calibratedFloor(e, o.floor).floor : null;
	const salient = salientTerms(o.query, 16);
	// Identifiers count by their parts too (retryWithBackoff → retry, backoff); chatter dropped again.
	const parts = salientTerms(
		salient
			.flatMap(splitIdentifier)
			.filter((w) => w.length > 2 && !PATH_NOISE.has(w))
			.join(' '),
		32,
	);
	const terms = [...new Set([...salient, ...parts].map((t) => t.toLowerCase()))];
	const need = Math.min(2, salient.length);
	const out: AppliedInstruction[] = [];
	open.forEach((s, i) => {
		const cos = cosines?.[i] ?? null;
		if (cos !== null && floor !== null && cos >= floor) {
			out.push({
				source: s.source,
				title: s.title,
				text: s.text,
				why: `similarity ${cos.toFixed(2)} ≥ recall floor ${floor.toFixed(2)}`,
				score: cos,
			});
			return;
		}
		const words = new Set(codeTokens(`${s.title} ${s.description} ${s.text}`).map(stem));
		const shared = terms.filter((t) => words.has(stem(t)));
		if (need > 0 && shared.length >= need) {
			const sim = cos === null ? '' : `; similarity ${cos.toFixed(2)} < floor ${floor!.toFixed(2)}`;
			out.push({
				source: s.source,
				title: s.title,
				text: s.text,
				why: `shares ${shared.length} of the message's ${terms.length} terms (${shared.slice(0, 4).join(', ')})${sim}`,
				score: shared.length / terms.length,
			});
		}
	});
	return out;
}

async function cosinesOf(e: Embedder, open: (SectionMeta & { text: string })[], query: string): Promise<number[]> {
	const texts = open.map((s) => `${s.title}\n${s.description}\n${s.text}`);
	const missing = [...new Set(texts.filter((t) => !VECTOR_CACHE.has(`${e.id}\u0000${t}`)))];
	if (missing.length) {
		const vecs = await e.embed(missing);
		missing.forEach((t, i) => VECTOR_CACHE.set(`${e.id}\u0000${t}`, vecs[i]!));
		while (VECTOR_CACHE.size > VECTOR_CACHE_MAX) VECTOR_CACHE.delete(VECTOR_CACHE.keys().next().value!);
	}
	const [q] = await e.embed([query]);
	return texts.map((t) => dot(q!, VECTOR_CACHE.get(`${e.id}\u0000${t}`)!));
}

// Path parts that say nothing about a topic (src/app.ts → app only).
const PATH_NOISE = new Set([
	'src',
	'lib',
	'dist',
	'out',
	'build',
	'tsx',
	'jsx',
	'mjs',
	'cjs',
	'json',
	'yaml',
	'yml',
	'toml',
	'html',
	'css',
]);

// "tests" → "test", "migrations" → "migration": plural and -ing/-ed forms meet; not a real stemmer.
function stem(t: string): string {
	return t.length > 4 ? t.replace(/(?:ing|ed|es|s)$/, '') : t;
}

function entries(sections: readonly InstructionSection[]): { key: string; value: string; meta: string }[] {
	const seen = new Map<string, number>();
	return sections.map((s) => {
		const n = (seen.get(s.title) ?? 0) + 1;
		seen.set(s.title, n);
		const title = n === 1 ? s.title : `${s.title} (${n})`;
		const meta: SectionMeta = {
			source: s.source,
			title,
			globs: s.globs,
			alwaysApply: s.alwaysApply,
			description: s.description,
		};
		return { key: sectionKey(s.source, title), value: s.text, meta: `${META_PREFIX}${JSON.stringify(meta)}` };
	});
}

function parseMeta(sourceTurn: string | null): SectionMeta | null {
	if (!sourceTurn?.startsWith(META_PREFIX)) return null;
	try {
		const m = JSON.parse(sourceTurn.slice(META_PREFIX.length)) as Partial<SectionMeta>;
		if (typeof m.source !== 'string' || typeof m.title !== 'string') return null;
		return {
			source: m.source,
			title: m.title,
			globs: Array.isArray(m.globs) ? m.globs.filter((g): g is string => typeof g === 'string') : [],
			alwaysApply: m.alwaysApply === true,
			description: typeof m.description === 'string' ? m.description : '',
		};
	} catch {
		return null;
	}
}

function dot(a: Float32Array, b: Float32Array): number {
	let s = 0;
	for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
	return s;
}

function note(level: 'info' | 'warn', message: string): TraceStep {
	return { kind: 'note', stage: 'retrieval', level, message };
}
