/**
 * The host's store behind a chat turn's write path: the decision's `write` tiers through
 * memoryWriter.persistTurn (research Q&A, corrections superseding what they contradict, profile
 * updates) and both messages into the conversation tier. Memory rows belong to the first
 * workspace folder (a store holds many workspaces). No `vscode`.
 */
import type { Thresholds } from '../core/thresholds';
import type { TraceStep } from '../core/trace';
import type { Embedder } from '../models/embedder';
import { instructionText, pathsInMessage, selectFileInstructions } from '../retrieval/instructionRecall';
import { recallMemories, standingInstructions } from '../retrieval/memoryRecall';
import { persistTurn } from '../retrieval/memoryWriter';
import { recordTurn } from '../store/memoryRepo';
import type { Store } from '../store/openStore';
import type { MemoryPort } from './turnEvidence';
import type { PersistFn } from './turnPersistence';

export interface TurnStoreDeps {
	openStore: () => Promise<Store>;
	embedder: () => Promise<Embedder | null>;
	/** Workspace ids of the window's folders (src/store/location.ts workspaceId), first = memory owner. */
	workspaceIds: () => readonly string[];
	thresholds: () => Thresholds;
}

/** Builds the PersistFn the pipeline calls after each reply. Rejects on store errors (the pipeline notes them). */
export function storePersist(deps: TurnStoreDeps): PersistFn {
	return async (r) => {
		const workspaceId = deps.workspaceIds()[0];
		if (workspaceId === undefined) return [note('info', 'no workspace folder open: nothing written')];
		const store = await deps.openStore();
		const steps: TraceStep[] = [];
		if (r.write.length) {
			const report = await persistTurn(store.db, await deps.embedder(), deps.thresholds(), {
				workspaceId,
				turnId: r.turnId,
				trigger: r.trigger,
				write: r.write,
				question: r.utterance,
				answer: r.answer,
			});
			const parts: string[] = [];
			if (report.research) parts.push(`research ${report.research.action} ${report.research.doc_id}`);
			if (report.superseded.length) parts.push(`superseded ${report.superseded.join(', ')}`);
			for (const p of report.profile) parts.push(`profile "${p.key}" ${p.changed ? 'updated' : 'unchanged'}`);
			steps.push(note('info', `remembered: ${parts.join('; ') || 'nothing new'}`));
		}
		const common = { workspaceId, conversationId: r.conversationId, turnId: r.turnId };
		await recordTurn(store.db, { ...common, role: 'user', content: r.utterance, trace: null });
		await recordTurn(store.db, { ...common, role: 'assistant', content: r.answer, trace: r.trace });
		return steps;
	};
}

/** Research/profile recall and standing instructions over the same store (rejects on store errors; the pipeline notes them). */
export function storeMemory(deps: Omit<TurnStoreDeps, 'thresholds'>): MemoryPort {
	return {
		async recall(query, tiers, result, thresholds) {
			const ids = [...deps.workspaceIds()];
			if (!ids.length) return { chunks: [], steps: [note('info', 'no workspace folder open: no memory to recall')] };
			const store = await deps.openStore();
			return recallMemories(store.db, { query, tiers, workspaceIds: ids, result, embedder: await deps.embedder(), thresholds });
		},
		async instructions() {
			const ids = [...deps.workspaceIds()];
			if (!ids.length) return [];
			const store = await deps.openStore();
			return standingInstructions(store.db, ids);
		},
		async fileInstructions(query, paths, result, thresholds) {
			const ids = [...deps.workspaceIds()];
			if (!ids.length) return { instructions: [], steps: [] };
			const store = await deps.openStore();
			const inPlay = [...new Set([...paths, ...pathsInMessage(query)])];
			const o = { query, paths: inPlay, embedder: await deps.embedder(), floor: result.policy.qa_min_similarity, max: thresholds.instruction_sections_per_turn };
			const r = await selectFileInstructions(store.db, ids, o);
			return { instructions: r.applied.map(instructionText), steps: r.steps };
		},
	};
}

function note(level: 'info' | 'warn' | 'error', message: string): TraceStep {
	return { kind: 'note', stage: 'persist', level, message };
}
