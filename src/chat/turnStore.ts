/**
 * The host's store behind a chat turn's write path: the turn's structured records through
 * memoryWriter.persistRecords (research Q&A, corrections superseding what they contradict, profile
 * updates) and both messages into the conversation tier, the reply with its final trace. Memory rows belong to the first
 * workspace folder (a store holds many workspaces). No `vscode`.
 */
import { err, ok, type Result } from '../core/result';
import type { Thresholds } from '../core/thresholds';
import type { TraceStep } from '../core/trace';
import type { Embedder } from '../models/embedder';
import { instructionText, pathsInMessage, selectFileInstructions } from '../retrieval/instructionRecall';
import { recallMemories, standingInstructions } from '../retrieval/memoryRecall';
import { persistRecords } from '../retrieval/memoryWriter';
import { recordTurn } from '../store/memoryRepo';
import type { Store } from '../store/openStore';
import type { MemoryPort } from './turnEvidence';
import { errorMessage } from './logger';
import type { PersistFn, PersistRequest } from './turnPersistence';

export interface TurnStoreDeps {
	openStore: () => Promise<Store>;
	embedder: () => Promise<Embedder | null>;
	/** Workspace ids of the window's folders (src/store/location.ts workspaceId), first = memory owner. */
	workspaceIds: () => readonly string[];
	thresholds: () => Thresholds;
}

/** Builds the PersistFn the pipeline calls after each reply; a store error is an `err` (the pipeline notes it). */
export function storePersist(deps: TurnStoreDeps): PersistFn {
	return (r) => storeResult(() => writeTurn(deps, r));
}

async function writeTurn(deps: TurnStoreDeps, r: PersistRequest): Promise<TraceStep[]> {
	const workspaceId = deps.workspaceIds()[0];
	if (workspaceId === undefined) return [note('info', 'no workspace folder open: nothing written')];
	const store = await deps.openStore();
	const steps: TraceStep[] = [];
	if (r.records.length) {
		const report = await persistRecords(
			store.db,
			await deps.embedder(),
			deps.thresholds(),
			{ workspaceId, turnId: r.turnId },
			r.records,
		);
		const parts: string[] = [];
		if (report.research) parts.push(`research ${report.research.action} ${report.research.doc_id}`);
		if (report.superseded.length) parts.push(`superseded ${report.superseded.join(', ')}`);
		for (const p of report.profile) parts.push(`profile "${p.key}" ${p.changed ? 'updated' : 'unchanged'}`);
		steps.push(note('info', `remembered: ${parts.join('; ') || 'nothing new'}`));
	}
	const common = { workspaceId, conversationId: r.conversationId, turnId: r.turnId };
	await recordTurn(store.db, { ...common, role: 'user', content: r.utterance, trace: null });
	// The final trace: the turn's steps, the hooks' and what was just written.
	await recordTurn(store.db, {
		...common,
		role: 'assistant',
		content: r.answer,
		trace: { ...r.trace, steps: [...r.trace.steps, ...steps] },
	});
	return steps;
}

/** Research/profile recall and standing instructions over the same store; a store error is an `err` (the pipeline notes it). */
export function storeMemory(deps: Omit<TurnStoreDeps, 'thresholds'>): MemoryPort {
	return {
		recall: (query, tiers, result, thresholds) =>
			storeResult(async () => {
				const ids = [...deps.workspaceIds()];
				if (!ids.length) return { chunks: [], steps: [note('info', 'no workspace folder open: no memory to recall')] };
				const store = await deps.openStore();
				return recallMemories(store.db, {
					query,
					tiers,
					workspaceIds: ids,
					result,
					embedder: await deps.embedder(),
					thresholds,
				});
			}),
		instructions: () =>
			storeResult(async () => {
				const ids = [...deps.workspaceIds()];
				if (!ids.length) return [];
				const store = await deps.openStore();
				return standingInstructions(store.db, ids);
			}),
		fileInstructions: (query, paths, result, thresholds) =>
			storeResult(async () => {
				const ids = [...deps.workspaceIds()];
				if (!ids.length) return { instructions: [], steps: [] };
				const store = await deps.openStore();
				const inPlay = [...new Set([...paths, ...pathsInMessage(query)])];
				const o = {
					query,
					paths: inPlay,
					embedder: await deps.embedder(),
					floor: result.policy.qa_min_similarity,
					max: thresholds.instruction_sections_per_turn,
				};
				const r = await selectFileInstructions(store.db, ids, o);
				return { instructions: r.applied.map(instructionText), steps: r.steps };
			}),
	};
}

/** A store call as a Result: opening or querying the store failing is expected (down, locked, cut), so it is a value. */
async function storeResult<T>(run: () => Promise<T>): Promise<Result<T>> {
	try {
		return ok(await run());
	} catch (e) {
		return err(errorMessage(e));
	}
}

function note(level: 'info' | 'warn' | 'error', message: string): TraceStep {
	return { kind: 'note', stage: 'persist', level, message };
}
