/**
 * Gathers what the memory panel shows: the store's part (memoryState.ts), this session's
 * decisions, the thresholds in force, index health and the store's identity. No `vscode`
 * import — the host passes small functions — so it is tested without a workbench. A store that
 * cannot be opened is reported in the state, never thrown; in Restricted Mode it is not opened.
 */
import type {
	DecisionItem,
	IndexHealthView,
	MemoryPanelState,
	PendingMemoryItem,
	StoreInfo,
	ThresholdView,
} from '../../core/memoryPanelProtocol';
import { proposalKind } from '../../chat/memoryProposals';
import { pendingProposals } from '../../store/proposalRepo';
import { anchoredDocIds, demotedMemories, memoryProvenance, staleMemories } from '../../store/anchorRepo';
import { checkRecalled } from '../../chat/memoryFreshness';
import type { DemotedMemoryItem, StaleMemoryItem } from '../../core/memoryPanelProtocol';
import { memoryState, type StoredMemoryState } from '../../store/memoryState';
import type { Store } from '../../store/openStore';
import type { RecentDecision } from '../../chat/conversationSession';
import { errorMessage } from '../../chat/logger';

/** What the gatherer reads from the host. */
export interface MemoryPanelSources {
	openStore: () => Promise<Store>;
	workspaceIds: () => string[];
	sessionDecisions: () => readonly RecentDecision[];
	thresholds: () => ThresholdView[];
	restricted: () => boolean;
	/** Where the store location came from ("setting", "GMEM_DB", "default"). */
	storeSource: () => string;
	/** The indexer's health report (INDEX-UX's IndexStatus), or null before any index run. */
	indexHealth?: () => IndexHealthView | null;
	now?: () => number;
	/** Decay setting (0 = off): memories idle this long are listed as demoted. */
	decayDays?: () => number;
}

/** How many decisions the panel lists. */
export const DECISIONS_SHOWN = 10;

/** A location for display: any password in a URL is masked (defence in depth; the store redacts too). */
export function displayLocation(where: string): string {
	if (!/^postgres(ql)?:\/\//i.test(where)) return where;
	try {
		const url = new URL(where);
		if (url.password) url.password = '***';
		return url.toString();
	} catch {
		return '(a database URL that cannot be shown)';
	}
}

/** This session's decisions (newest first), then stored ones not already listed. */
export function mergeDecisions(
	session: readonly RecentDecision[],
	stored: readonly DecisionItem[],
	limit = DECISIONS_SHOWN,
): DecisionItem[] {
	const fromSession: DecisionItem[] = [...session].reverse().map((d) => ({
		turnId: d.turnId,
		at: d.at,
		utterance: d.utterance,
		trigger: d.trace.decision.trigger,
		path: d.trace.decision.path,
		tiers: [...d.trace.decision.tiers],
		route: d.trace.decision.route,
		source: 'session',
	}));
	const seen = new Set(fromSession.map((d) => d.turnId));
	return [...fromSession, ...stored.filter((d) => !seen.has(d.turnId))].slice(0, limit);
}

const EMPTY_STORED: StoredMemoryState = {
	tiers: [],
	profile: [],
	memories: [],
	corrections: [],
	decisions: [],
	indexedFiles: 0,
	indexedChunks: 0,
};

async function readStore(
	src: MemoryPanelSources,
	ids: readonly string[],
): Promise<{
	stored: StoredMemoryState;
	store: StoreInfo | null;
	storeError: string | null;
	pending: PendingMemoryItem[];
	stale: StaleMemoryItem[];
	demoted: DemotedMemoryItem[];
}> {
	try {
		const s = await src.openStore();
		const store = {
			engine: s.engine,
			schemaVersion: s.schemaVersion,
			where: displayLocation(s.where),
			source: s.folder ? src.storeSource() : 'database URL',
		};
		const pending = (await pendingProposals(s.db, ids)).map((p) => ({
			id: p.id,
			tier: p.tier,
			kind: proposalKind(p.tier, p.trigger),
			text: p.text,
			at: Date.parse(p.created_at),
		}));
		// Check every memory that cites code against the workspace now, so the list is current
		// even for memories no turn has recalled since the code changed.
		await checkRecalled(s.db, ids, await anchoredDocIds(s.db, ids));
		const stale = (await staleMemories(s.db, ids)).map((m) => ({
			workspaceId: m.workspace_id,
			docId: m.doc_id,
			content: m.content,
			cites: `${m.path}${m.start_line !== null ? `:${m.start_line}-${m.end_line ?? m.start_line}` : ''}${m.symbol ? ` (${m.symbol})` : ''}`,
			checkedAt: m.checked_at ? Date.parse(m.checked_at) : null,
		}));
		const days = src.decayDays?.() ?? 0;
		const demoted = (await demotedMemories(s.db, ids, days)).map((m) => ({
			workspaceId: m.workspace_id,
			docId: m.doc_id,
			content: m.content,
			idleDays: m.idle_days,
		}));
		const stored = await memoryState(s.db, ids, { memories: 20, corrections: 10, decisions: DECISIONS_SHOWN });
		// Each memory's source turn (why recalled → open the turn that created it).
		const turns = new Map(
			(
				await memoryProvenance(
					s.db,
					ids,
					stored.memories.map((m) => m.docId),
				)
			).map((p) => [p.doc_id, p.source_turn]),
		);
		const memories = stored.memories.map((m) => ({ ...m, sourceTurn: turns.get(m.docId) ?? null }));
		return { store, storeError: null, stored: { ...stored, memories }, pending, stale, demoted };
	} catch (e) {
		return { stored: EMPTY_STORED, store: null, storeError: errorMessage(e), pending: [], stale: [], demoted: [] };
	}
}

/** Reads everything; a store failure leaves the store's sections empty with the reason. */
export async function gatherMemoryPanelState(src: MemoryPanelSources): Promise<MemoryPanelState> {
	const ids = src.workspaceIds();
	const restricted = src.restricted();
	// Restricted Mode reads no stored memory (package.json untrustedWorkspaces): an untrusted
	// workspace's settings could point the store elsewhere. The session and thresholds still show.
	const { stored, store, storeError, pending, stale, demoted } = restricted
		? { stored: EMPTY_STORED, store: null, storeError: null, pending: [], stale: [], demoted: [] }
		: await readStore(src, ids);
	return {
		generatedAt: (src.now ?? Date.now)(),
		restricted,
		workspaceFolders: ids.length,
		store,
		storeError,
		tiers: stored.tiers,
		profile: stored.profile,
		memories: stored.memories,
		corrections: stored.corrections,
		decisions: mergeDecisions(src.sessionDecisions(), stored.decisions),
		indexedFiles: stored.indexedFiles,
		indexedChunks: stored.indexedChunks,
		index: src.indexHealth?.() ?? null,
		thresholds: src.thresholds(),
		pending,
		stale,
		demoted,
	};
}
