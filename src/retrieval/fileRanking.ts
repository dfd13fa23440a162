/**
 * Chunks → files (issue 15 item 3). Two pure steps after the rerank:
 * - applyKindPriors reorders the chunk pool by rank × the document-type prior of its file
 *   (filePriors.ts), so an implementation question's evidence opens with the implementation;
 * - rankFiles ranks distinct files by fusing (RRF) two lists: files by their best chunk in that
 *   order, and files by the decayed sum of their chunks' BM25 scores (best + d·second + d²·third:
 *   several matching chunks are evidence about a file that one chunk is not; measured on django,
 *   docs/evaluation.md), the latter weighted by the same priors. Pinned chunks' files stay first.
 *   In files mode the sums come from the file-level BM25 arm (fileBm25Arm.ts), which reaches files
 *   the pool does not hold.
 */
import type { SearchHit } from './hybridSearch';
import {
	fileKind,
	implementationDirs,
	implementationNearby,
	kindPrior,
	type FileKind,
	type TurnWant,
} from './filePriors';
import type { RetrievalTuning } from './retrievalThresholds';

const fileKey = (h: Pick<SearchHit, 'path' | 'id'>) => h.path ?? `doc:${h.id}`;

/** What the priors did, for the trace. */
export interface PriorOutcome<H> {
	ranked: H[];
	/** Files per kind that a prior other than 1 touched. */
	touched: Partial<Record<FileKind, number>>;
	rules: string[];
}

/** Reorders by prior / (rrfK + rank), stable; `keepFirst` chunk ids stay where they are, at the front. */
export function applyKindPriors<H extends { hit: Pick<SearchHit, 'path' | 'id' | 'chunk_id'> }>(
	candidates: readonly H[],
	want: TurnWant,
	t: RetrievalTuning,
	rrfK: number,
	keepFirst: ReadonlySet<string> = new Set(),
): PriorOutcome<H> {
	const touched: Partial<Record<FileKind, number>> = {};
	const rules = new Set<string>();
	const seenFiles = new Set<string>();
	const implDirs = implementationDirs(candidates.map((c) => c.hit.path));
	const scored = candidates.map((c, i) => {
		const kind = fileKind(c.hit.path);
		const p = kindPrior(kind, want, t, implementationNearby(c.hit.path, implDirs));
		if (p.rule && p.weight !== 1) {
			rules.add(p.rule);
			if (!seenFiles.has(fileKey(c.hit))) touched[kind] = (touched[kind] ?? 0) + 1;
		}
		seenFiles.add(fileKey(c.hit));
		const pinned = keepFirst.has(c.hit.chunk_id);
		return { c, i, pinned, s: p.weight / (rrfK + i + 1) };
	});
	scored.sort((a, b) => Number(b.pinned) - Number(a.pinned) || (a.pinned ? a.i - b.i : b.s - a.s || a.i - b.i));
	return { ranked: scored.map((x) => x.c), touched, rules: [...rules] };
}

/** A file: its best chunk (first in the given order) and its fused file score. */
export interface RankedFile {
	hit: SearchHit;
	file_score: number;
	/** The decayed sum of its chunks' BM25 scores (0 when none came from the full-text arm). */
	bm25_sum: number;
}

/** Decayed sum of the best `n` scores: s1 + d·s2 + d²·s3 … */
export function decayedSum(scores: readonly number[], decay: number, n: number): number {
	return [...scores]
		.sort((a, b) => b - a)
		.slice(0, n)
		.reduce((acc, s, i) => acc + s * decay ** i, 0);
}

/** A further ranked file list fused into the file ranking (one hit per file, best first). */
export interface FileList {
	weight: number;
	hits: readonly SearchHit[];
}

/**
 * Ranks the distinct files of `ranked` (chunks best first); see the module comment. `bm25Chunks`
 * (fileBm25Arm.ts), when given, is where the BM25 sums come from instead of the pool's chunks, and
 * a file only it found joins the list on its sum alone. `extra` lists (files a long report names or
 * whose definitions it names: mentionedFiles.ts, definedNames.ts) add weight × prior / (rrfK + rank),
 * and a file only they hold joins with its hit there.
 */
export function rankFiles(
	ranked: readonly SearchHit[],
	want: TurnWant,
	t: RetrievalTuning,
	rrfK: number,
	pinned: ReadonlySet<string> = new Set(),
	bm25Chunks?: readonly SearchHit[],
	extra: readonly FileList[] = [],
): RankedFile[] {
	type File = { hit: SearchHit; at: number; bm25: number[]; pinned: boolean };
	const best = new Map<string, File>();
	ranked.forEach((h, at) => {
		const key = fileKey(h);
		const f = best.get(key) ?? { hit: h, at, bm25: [], pinned: false };
		if (!bm25Chunks && h.arms.fts) f.bm25.push(h.arms.fts.score);
		if (pinned.has(h.chunk_id)) f.pinned = true;
		best.set(key, f);
	});
	const byChunk = new Map([...best.values()].map((f, i) => [f, i + 1]));
	for (const h of bm25Chunks ?? []) {
		if (!h.arms.fts) continue;
		const key = fileKey(h);
		const f = best.get(key) ?? { hit: h, at: Infinity, bm25: [], pinned: false };
		f.bm25.push(h.arms.fts.score);
		best.set(key, f);
	}
	const extraRank = extra.map((l) => {
		const at = new Map<string, number>();
		for (const h of l.hits) {
			const key = fileKey(h);
			if (at.has(key)) continue;
			at.set(key, at.size + 1);
			if (!best.has(key)) best.set(key, { hit: h, at: Infinity, bm25: [], pinned: false });
		}
		return { weight: l.weight, at };
	});
	const files = [...best.values()];
	const implDirs = implementationDirs(files.map((f) => f.hit.path));
	const prior = (path: string | null) =>
		kindPrior(fileKind(path), want, t, implementationNearby(path, implDirs)).weight;
	const sums = files.map((f) => ({
		f,
		sum: decayedSum(f.bm25, t.file_agg_decay, t.file_agg_chunks) * prior(f.hit.path),
	}));
	const bySum = new Map(
		sums
			.filter((x) => x.sum > 0)
			.sort((a, b) => b.sum - a.sum)
			.map((x, i) => [x.f, i + 1]),
	);
	const out = sums.map(({ f, sum }) => {
		const a = byChunk.get(f);
		const b = bySum.get(f);
		let score = (a ? 1 / (rrfK + a) : 0) + (b ? t.file_bm25_weight / (rrfK + b) : 0);
		if (extraRank.length) {
			const p = prior(f.hit.path);
			for (const l of extraRank) {
				const r = l.at.get(fileKey(f.hit));
				if (r) score += (l.weight * p) / (rrfK + r);
			}
		}
		return { f, score, sum };
	});
	// Pinned files first, in their pinned order (a trace's innermost frame leads), then by score.
	out.sort(
		(x, y) =>
			Number(y.f.pinned) - Number(x.f.pinned) || (x.f.pinned ? x.f.at - y.f.at : y.score - x.score || x.f.at - y.f.at),
	);
	return out
		.filter((x) => x.score > 0 || x.f.at !== Infinity)
		.map((x) => ({ hit: x.f.hit, file_score: x.score, bm25_sum: x.sum }));
}
