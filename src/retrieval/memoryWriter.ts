/**
 * The write path after a reply (called from the `before_persist` hook's caller): the Q&A goes to
 * research memory, profile statements and instructions update the profile (one current value
 * per key, history kept), a correction supersedes the stale memory it contradicts, and
 * near-duplicates are merged rather than stacked. Every host writes through here (the chat turn,
 * `gmem mcp`'s remember), and secrets are redacted first with the indexer's scanner, so a token
 * pasted into a chat or an agent's remember call never reaches the store.
 */
import type { PersistRecord, ResearchRecord } from '../core/hooks';
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
	return text
		.toLowerCase()
		.replace(/\s+/g, ' ')
		.replace(/[.!?\s]+$/, '')
		.trim();
}

/** A profile statement as key/value: "my X is Y", "call me Y"; instructions keep their text. */
export function parseProfileStatement(
	text: string,
	trigger: Trigger,
): { key: string; value: string; kind: ProfileKind } | null {
	const t = text.trim();
	const mine = /\bmy ([a-z][a-z ]{0,30}?) (?:is|are) (.+?)[.!]?$/i.exec(t);
	if (mine) return { key: normalise(mine[1]), value: mine[2].trim(), kind: 'fact' };
	const call = /\bcall me ([^.!,]+)/i.exec(t);
	if (call) return { key: 'name', value: call[1].trim(), kind: 'fact' };
	if (trigger === 'instruction')
		return { key: `instruction:${contentHash(normalise(t)).slice(0, 12)}`, value: t, kind: 'instruction' };
	return null;
}

// Not a config file: tokens and quoted `password = "…"` assignments count, bare words do not.
const clean = (text: string) => redactSecrets(text, '').text;

/** The turn with every recognisable secret replaced by [REDACTED] (kinds only are known, never values). */
export function withoutSecrets(w: TurnWrite): TurnWrite {
	const profile = w.profile?.map((p) => ({ ...p, key: clean(p.key), value: clean(p.value) }));
	return { ...w, question: clean(w.question), answer: clean(w.answer), ...(profile ? { profile } : {}) };
}

/** A record with every recognisable secret replaced by [REDACTED]. */
export function recordWithoutSecrets(r: PersistRecord): PersistRecord {
	return r.tier === 'research'
		? { ...r, question: clean(r.question), answer: clean(r.answer) }
		: { ...r, key: clean(r.key), value: clean(r.value), question: clean(r.question) };
}

/**
 * The structured records a turn's `write` list stands for (what `before_persist` hooks see): a
 * correction, a Q&A (a note when there is no answer), profile updates given or parsed from the
 * user's words ("my X is Y", an instruction). A statement with no recognisable key writes no profile row.
 */
export function turnRecords(w: Omit<TurnWrite, 'workspaceId' | 'turnId'>): PersistRecord[] {
	const records: PersistRecord[] = [];
	if (w.write.includes('profile')) {
		const updates = w.profile ?? [parseProfileStatement(w.question, w.trigger)].filter((p) => p !== null);
		for (const p of updates)
			records.push({ tier: 'profile', kind: p.kind, key: p.key, value: p.value, question: w.question });
	}
	if (w.write.includes('research')) {
		const kind = w.trigger === 'correction' ? 'correction' : w.answer === '' ? 'note' : 'qa';
		records.push({
			tier: 'research',
			kind,
			question: w.question,
			answer: kind === 'qa' ? w.answer : '',
			...(w.supersedes ? { supersedes: w.supersedes } : {}),
		});
	}
	return records;
}

/** Persists one turn according to `write`, secrets redacted first (turnRecords, then persistRecords). */
export function persistTurn(
	db: Queryable,
	embedder: Embedder | null,
	thresholds: Thresholds,
	turn: TurnWrite,
): Promise<WriteReport> {
	return persistRecords(
		db,
		embedder,
		thresholds,
		{ workspaceId: turn.workspaceId, turnId: turn.turnId },
		turnRecords(turn),
	);
}

/**
 * Writes structured records as they are — no text is rebuilt or re-parsed, so a `before_persist`
 * hook's edit is what lands and a dropped record is not written. Secrets are redacted first.
 * Profile rows first, then research (a correction finds what it contradicts before it is stored).
 */
export async function persistRecords(
	db: Queryable,
	embedder: Embedder | null,
	thresholds: Thresholds,
	target: { workspaceId: string; turnId: string },
	records: readonly PersistRecord[],
): Promise<WriteReport> {
	const report: WriteReport = { research: null, superseded: [], profile: [] };
	const clean = records.map(recordWithoutSecrets);
	for (const r of clean) {
		if (r.tier !== 'profile') continue;
		const changed = await setProfileValue(db, {
			workspaceId: target.workspaceId,
			key: r.key,
			value: r.value,
			kind: r.kind,
			sourceTurn: target.turnId,
		});
		report.profile.push({ key: r.key, changed });
	}
	for (const r of clean) if (r.tier === 'research') await writeResearch(db, embedder, thresholds, target, r, report);
	return report;
}

async function writeResearch(
	db: Queryable,
	embedder: Embedder | null,
	thresholds: Thresholds,
	target: { workspaceId: string; turnId: string },
	r: ResearchRecord,
	report: WriteReport,
): Promise<void> {
	const { workspaceId, turnId } = target;
	const kind: ResearchKind = r.kind === 'qa' && r.answer === '' ? 'note' : r.kind;
	const content = kind === 'qa' ? `Q: ${r.question}\nA: ${r.answer}` : r.question;
	const hash = contentHash(normalise(content));
	// A correction is by nature close in meaning to what it contradicts ("deploys with Kustomize, not
	// Helm" vs "deploys with Helm"): only an exact restatement merges; a near one must supersede.
	const near = kind === 'correction' ? null : await semanticDuplicate(db, embedder, thresholds, workspaceId, content);
	const duplicate = (await currentMemoryByHash(db, workspaceId, hash)) ?? near;
	if (duplicate) {
		await mergeMemory(db, duplicate.id, turnId);
		report.research = { action: 'merged', doc_id: duplicate.doc_id };
		return;
	}
	// Find what a correction contradicts before it is itself stored (it would match itself best).
	const stale =
		r.supersedes ??
		(kind === 'correction' ? await contradicted(db, embedder, thresholds, workspaceId, r.question) : []);
	const docId = `memory:${turnId}:${hash.slice(0, 8)}`;
	const id = await insertResearchMemory(db, {
		workspaceId,
		docId,
		kind,
		question: r.question,
		content,
		contentHash: hash,
		sourceTurn: turnId,
	});
	await ingestDocuments(db, [{ id: docId, text: content, kind }], { workspaceId, tier: 'research' }, embedder);
	for (const row of await memoriesByDocIds(db, workspaceId, stale)) {
		if (row.superseded_by !== null) continue;
		await supersedeMemory(db, workspaceId, row.id, id);
		report.superseded.push(row.doc_id);
	}
	report.research = { action: 'inserted', doc_id: docId };
}

// Cosine of a semantic embedder only: hashing-embedder cosines measure shared words, not meaning.
async function semanticDuplicate(
	db: Queryable,
	embedder: Embedder | null,
	t: Thresholds,
	workspaceId: string,
	content: string,
) {
	if (!embedder?.semantic) return null;
	const r = await hybridSearch(db, content, {
		tier: 'research',
		workspaceIds: [workspaceId],
		k: 1,
		arm: 'vector',
		embedder,
		cosineFloor: t.memory_merge_cosine,
		thresholds: t,
	});
	const rows = await memoriesByDocIds(
		db,
		workspaceId,
		r.hits.map((h) => h.id),
	);
	return rows.find((m) => m.superseded_by === null) ?? null;
}

/**
 * The memory a correction contradicts: the best current research hit that shares words with it
 * (a full-text match is required, so an unrelated memory is never superseded by a vector guess).
 */
async function contradicted(
	db: Queryable,
	embedder: Embedder | null,
	t: Thresholds,
	workspaceId: string,
	correction: string,
): Promise<string[]> {
	const r = await hybridSearch(db, correction, {
		tier: 'research',
		workspaceIds: [workspaceId],
		k: 3,
		arm: 'hybrid',
		embedder,
		cosineFloor: null,
		thresholds: t,
	});
	const best = r.hits.find((h) => h.arms.fts !== null);
	return best ? [best.id] : [];
}
