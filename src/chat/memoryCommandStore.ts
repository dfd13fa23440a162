/**
 * The store side of a chat "forget that …" (#19): candidates from the store's own search
 * (research memory by hybrid search with the recall floor, the profile's facts, preferences and
 * standing instructions by full text), forgetting exactly the chosen ones, and Undo — each
 * forgotten item is kept as a snapshot by the host (never in the page) and written back as it was
 * (a research memory with its doc id, kind, source turn and code anchors; a profile key with its
 * current value). No `vscode`.
 */
import type { Thresholds } from '../core/thresholds';
import type { GateResult } from '../core/types';
import type { Embedder } from '../models/embedder';
import { hybridSearch } from '../retrieval/hybridSearch';
import { ingestDocuments } from '../retrieval/ingest';
import { anchorsForDocIds, insertAnchors, type AnchorRow } from '../store/anchorRepo';
import { forgetProfileKey, forgetResearchMemory } from '../store/memoryState';
import {
	insertResearchMemory,
	memoriesByDocIds,
	setProfileValue,
	type ProfileKind,
	type NewResearchMemory,
} from '../store/memoryRepo';
import { rankedCurrentProfile } from '../store/recallQueries';
import type { Store } from '../store/openStore';
import { scopeOf } from '../store/queryable';
import type { ForgetCandidate } from './forgetMatch';

/** Candidates looked at per tier. */
const CANDIDATES_PER_TIER = 10;

/** What Undo writes back for one forgotten item. */
export type ForgottenItem =
	| (NewResearchMemory & {
			tier: 'research';
			anchors: Pick<AnchorRow, 'path' | 'symbol' | 'start_line' | 'end_line' | 'content_hash'>[];
	  })
	| { tier: 'profile' | 'instruction'; workspaceId: string; key: string; value: string; kind: ProfileKind };

/** The chat's port to the store for memory commands. */
export interface MemoryCommandStore {
	candidates(query: string, result: GateResult, thresholds: Thresholds): Promise<ForgetCandidate[]>;
	/** Forgets these (only these); returns what Undo needs. */
	forget(targets: readonly ForgetCandidate[]): Promise<ForgottenItem[]>;
	/** Writes the forgotten items back. */
	restore(items: readonly ForgottenItem[]): Promise<number>;
}

export interface MemoryCommandStoreDeps {
	openStore: () => Promise<Store>;
	embedder: () => Promise<Embedder | null>;
	workspaceIds: () => readonly string[];
	/** Called after memories were forgotten or restored (an open Inspect Memory State refreshes). */
	onChange?: () => void;
}

export function storeMemoryCommands(deps: MemoryCommandStoreDeps): MemoryCommandStore {
	return {
		async candidates(query, result, thresholds) {
			const ids = [...deps.workspaceIds()];
			if (!ids.length) return [];
			const { db } = await deps.openStore();
			const embedder = await deps.embedder();
			const out: ForgetCandidate[] = [];
			const found = await hybridSearch(db, query, {
				tier: 'research',
				workspaceIds: ids,
				k: CANDIDATES_PER_TIER,
				arm: embedder ? 'hybrid' : 'fts',
				embedder,
				cosineFloor: embedder ? result.policy.qa_min_similarity : null,
				thresholds,
			});
			const docIds = [...new Set(found.hits.map((h) => h.id))];
			for (const workspaceId of ids)
				for (const row of await memoriesByDocIds(db, workspaceId, docIds))
					if (row.superseded_by === null)
						out.push({ tier: 'research', workspaceId, id: row.doc_id, text: row.content });
			for (const workspaceId of ids) {
				const rows = await rankedCurrentProfile(
					db,
					[workspaceId],
					['fact', 'preference', 'instruction'],
					query,
					CANDIDATES_PER_TIER,
				);
				for (const r of rows) {
					// Instruction files' sections (file:…) come from AGENTS.md & co.: edited there, not forgotten here.
					if (r.key.startsWith('file:')) continue;
					const tier = r.kind === 'instruction' ? 'instruction' : 'profile';
					const label = r.kind === 'fact' ? `${r.key.replace(/_/g, ' ')}: ${r.value}` : r.value;
					out.push({ tier, workspaceId, id: r.key, text: label });
				}
			}
			return out;
		},

		async forget(targets) {
			const { db } = await deps.openStore();
			const items: ForgottenItem[] = [];
			for (const t of targets) {
				if (t.tier === 'research') {
					const [row] = await memoriesByDocIds(db, t.workspaceId, [t.id]);
					if (!row) continue;
					const anchors = await anchorsForDocIds(db, [t.workspaceId], [t.id]);
					const [src] = await db.query<{ source_turn: string | null }>(
						`SELECT source_turn FROM research_memory WHERE scope = $1 AND workspace_id = $2 AND doc_id = $3`,
						[scopeOf(db), t.workspaceId, t.id],
					);
					if ((await forgetResearchMemory(db, t.workspaceId, t.id)) === 0) continue;
					items.push({
						tier: 'research',
						workspaceId: t.workspaceId,
						docId: row.doc_id,
						kind: row.kind,
						question: row.question,
						content: row.content,
						contentHash: row.content_hash,
						sourceTurn: src?.source_turn ?? null,
						anchors: anchors.map(({ path, symbol, start_line, end_line, content_hash }) => ({
							path,
							symbol,
							start_line,
							end_line,
							content_hash,
						})),
					});
				} else {
					const [cur] = await db.query<{ value: string; kind: ProfileKind }>(
						`SELECT value, kind FROM profile_entries WHERE scope = $1 AND workspace_id = $2 AND key = $3 AND valid_to IS NULL`,
						[scopeOf(db), t.workspaceId, t.id],
					);
					if (!cur || (await forgetProfileKey(db, t.workspaceId, t.id)) === 0) continue;
					items.push({ tier: t.tier, workspaceId: t.workspaceId, key: t.id, value: cur.value, kind: cur.kind });
				}
			}
			if (items.length) deps.onChange?.();
			return items;
		},

		async restore(items) {
			const { db } = await deps.openStore();
			const embedder = await deps.embedder();
			let n = 0;
			for (const it of items) {
				if (it.tier === 'research') {
					if ((await memoriesByDocIds(db, it.workspaceId, [it.docId])).length) continue; // already back
					const id = await insertResearchMemory(db, {
						workspaceId: it.workspaceId,
						docId: it.docId,
						kind: it.kind,
						question: it.question,
						content: it.content,
						contentHash: it.contentHash,
						sourceTurn: it.sourceTurn,
					});
					await ingestDocuments(
						db,
						[{ id: it.docId, text: it.content, kind: it.kind }],
						{ workspaceId: it.workspaceId, tier: 'research' },
						embedder,
					);
					await insertAnchors(
						db,
						it.workspaceId,
						{ id, docId: it.docId },
						it.anchors.map((a) => ({
							path: a.path,
							symbol: a.symbol,
							startLine: a.start_line,
							endLine: a.end_line,
							contentHash: a.content_hash,
						})),
					);
				} else {
					await setProfileValue(db, {
						workspaceId: it.workspaceId,
						key: it.key,
						value: it.value,
						kind: it.kind,
						sourceTurn: null,
					});
				}
				n++;
			}
			if (n) deps.onChange?.();
			return n;
		},
	};
}
