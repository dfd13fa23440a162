/**
 * The write path after a reply (called from the `before_persist` hook's caller): the Q&A goes to
 * research memory, profile statements and instructions update the profile (one current value
 * per key, history kept), a correction supersedes the stale memory it contradicts, and
 * near-duplicates are merged rather than stacked. Every host writes through here (the chat turn,
 * `gmem mcp`'s remember), and secrets are redacted first with the indexer's scanner, so a token
 * pasted into a chat or an agent's remember call never reaches the store.
 */
import type { Thresholds } from '../core/thresholds';
import type { Trigger, WriteTier } from '../core/types';
import { redactSecrets } from '../indexing/secretScan';
import type { Embedder } from '../models/embedder';
import {
	currentMemoryByHash,
	insertResearchMemory,
	memoriesByDocIds,
	mergeMemory,
	setProfileValue,
	supersedeMemory,
	type ProfileKind,
	type ResearchKind,
} from '../store/memoryRepo';
import type { Queryable } from '../store/queryable';
import { hybridSearch } from './hybridSearch';
import { contentHash, ingestDocuments } from './ingest';

/** One turn to persist; `write` is the decision core's `write` list. */
export interface TurnWrite {
	workspaceId: string;
	turnId: string;
	trigger: Trigger;
	write: readonly WriteTier[];
	question: string;
	/** The reply; empty for a bare note (`gmem mcp` remember), stored as its text alone. */
	answer: string;
	/** Explicit profile updates; without them a "my X is Y" statement is parsed. */
	profile?: { key: string; value: string; kind: ProfileKind }[];
	/** Memory doc ids a correction replaces, when the caller knows them. */
	supersedes?: string[];
}

/** What was written, for the trace. */
export interface WriteReport {
	research: { action: 'inserted' | 'merged'; doc_id: string } | null;
	superseded: string[];
	profile: { key: string; changed: boolean }[];
}

/** Lower-cased, whitespace-collapsed text: equal for trivially different restatements. */
export function normalise(text: string): string {
	return text.toLowerCase().replace(/\s+/g, ' ').replace(/[.!?\s]+$/, '').trim();
}

/** A profile statement as key/value: "my X is Y", "call me Y"; instructions keep their text. */
export function parseProfileStatement(text: string, trigger: Trigger): { key: string; value: string; kind: ProfileKind } | null {
	const t = text.trim();
	const mine = /\bmy ([a-z][a-z ]{0,30}?) (?:is|are) (.+?)[.!]?$/i.exec(t);
	if (mine) return { key: normalise(mine[1]), value: mine[2].trim(), kind: 'fact' };
	const call = /\bcall me ([^.!,]+)/i.exec(t);
	if (call) return { key: 'name', value: call[1].trim(), kind: 'fact' };
	if (trigger === 'instruction') return { key: `instruction:${contentHash(normalise(t)).slice(0, 12)}`, value: t, kind: 'instruction' };
	return null;
}

// Not a config file: tokens and quoted `password = "…"` assignments count, bare words do not.
const clean = (text: string) => redactSecrets(text, '').text;

/** The turn with every recognisable secret replaced by [REDACTED] (kinds only are known, never values). */
export function withoutSecrets(w: TurnWrite): TurnWrite {
	const profile = w.profile?.map((p) => ({ ...p, key: clean(p.key), value: clean(p.value) }));
	return { ...w, question: clean(w.question), answer: clean(w.answer), ...(profile ? { profile } : {}) };
}

/** Persists one turn according to `write`, secrets redacted first. */
export async function persistTurn(db: Queryable, embedder: Embedder | null, thresholds: Thresholds, turn: TurnWrite): Promise<WriteReport> {
	const w = withoutSecrets(turn);
	const report: WriteReport = { research: null, superseded: [], profile: [] };
	if (w.write.includes('profile')) {
		const updates = w.profile ?? [parseProfileStatement(w.question, w.trigger)].filter((p) => p !== null);
		for (const p of updates) {
			const changed = await setProfileValue(db, { workspaceId: w.workspaceId, ...p, sourceTurn: w.turnId });
			report.profile.push({ key: p.key, changed });
		}
	}
	if (w.write.includes('research')) await writeResearch(db, embedder, thresholds, w, report);
	return report;
}

async function writeResearch(db: Queryable, embedder: Embedder | null, thresholds: Thresholds, w: TurnWrite, report: WriteReport): Promise<void> {
	const kind: ResearchKind = w.trigger === 'correction' ? 'correction' : w.answer === '' ? 'note' : 'qa';
	const content = kind === 'qa' ? `Q: ${w.question}\nA: ${w.answer}` : w.question;
	const hash = contentHash(normalise(content));
	// A correction is by nature close in meaning to what it contradicts ("deploys with Kustomize, not
	// Helm" vs "deploys with Helm"): only an exact restatement merges; a near one must supersede.
	const near = kind === 'correction' ? null : await semanticDuplicate(db, embedder, thresholds, w.workspaceId, content);
	const duplicate = (await currentMemoryByHash(db, w.workspaceId, hash)) ?? near;
	if (duplicate) {
		await mergeMemory(db, duplicate.id, w.turnId);
		report.research = { action: 'merged', doc_id: duplicate.doc_id };
		return;
	}
	// Find what a correction contradicts before it is itself stored (it would match itself best).
	const stale = kind === 'correction' ? (w.supersedes ?? (await contradicted(db, embedder, thresholds, w.workspaceId, w.question))) : [];
	const docId = `memory:${w.turnId}:${hash.slice(0, 8)}`;
	const id = await insertResearchMemory(db, { workspaceId: w.workspaceId, docId, kind, question: w.question, content, contentHash: hash, sourceTurn: w.turnId });
	await ingestDocuments(db, [{ id: docId, text: content, kind }], { workspaceId: w.workspaceId, tier: 'research' }, embedder);
	for (const row of await memoriesByDocIds(db, w.workspaceId, stale)) {
		if (row.superseded_by !== null) continue;
		await supersedeMemory(db, w.workspaceId, row.id, id);
		report.superseded.push(row.doc_id);
	}
	report.research = { action: 'inserted', doc_id: docId };
}

// Cosine of a semantic embedder only: hashing-embedder cosines measure shared words, not meaning.
async function semanticDuplicate(db: Queryable, embedder: Embedder | null, t: Thresholds, workspaceId: string, content: string) {
	if (!embedder?.semantic) return null;
	const r = await hybridSearch(db, content, { tier: 'research', workspaceIds: [workspaceId], k: 1, arm: 'vector', embedder, cosineFloor: t.memory_merge_cosine, thresholds: t });
	const rows = await memoriesByDocIds(db, workspaceId, r.hits.map((h) => h.id));
	return rows.find((m) => m.superseded_by === null) ?? null;
}

/**
 * The memory a correction contradicts: the best current research hit that shares words with it
 * (a full-text match is required, so an unrelated memory is never superseded by a vector guess).
 */
async function contradicted(db: Queryable, embedder: Embedder | null, t: Thresholds, workspaceId: string, correction: string): Promise<string[]> {
	const r = await hybridSearch(db, correction, { tier: 'research', workspaceIds: [workspaceId], k: 3, arm: 'hybrid', embedder, cosineFloor: null, thresholds: t });
	const best = r.hits.find((h) => h.arms.fts !== null);
	return best ? [best.id] : [];
}
