/**
 * `gatedMemory.memory.writes` and `gatedMemory.memory.reads` applied at one point each: the write
 * path's PersistFn (where the decision's records are about to be written) and the MemoryPort
 * recall reads through. `auto` passes writes through; `confirm` diverts them to pending proposals
 * (memoryProposals.ts) and writes only the conversation tier; `off` writes only the conversation
 * tier and says so in the trace. Reads leave out the tiers the setting excludes, with a note.
 * No `vscode`.
 */
import { err, ok } from '../core/result';
import type { TraceStep } from '../core/trace';
import type { MemoryPort } from './turnEvidence';
import type { PersistFn, PersistRequest } from './turnPersistence';

export type WriteMode = 'auto' | 'confirm' | 'off';
export const WRITE_MODES = ['auto', 'confirm', 'off'] as const;

/** What recall may read: the research tier, the profile's facts, the standing instructions. */
export type ReadTier = 'research' | 'profile' | 'instructions';
export const READ_TIERS = ['research', 'profile', 'instructions'] as const;

/** Where confirm mode puts the records instead of writing them. */
export interface ProposalSink {
	propose(request: PersistRequest): Promise<TraceStep[]>;
}

/** The write path with the write mode applied (the host's PersistFn inside). */
export function gatedPersist(inner: PersistFn, deps: { mode: () => WriteMode; proposals: ProposalSink }): PersistFn {
	return async (request) => {
		const mode = deps.mode();
		if (mode === 'auto' || request.records.length === 0) return inner(request);
		const tiers = [...new Set(request.records.map((r) => r.tier))].join(' and ');
		if (mode === 'off') {
			const written = await inner({ ...request, records: [] });
			return written.ok
				? ok([note(`memory writes are off (gatedMemory.memory.writes): ${tiers} not written`), ...written.value])
				: written;
		}
		// Proposals first: if the store is down, the conversation write fails the same way and the
		// pipeline notes it once; nothing reaches research memory or the profile either way.
		let proposed: TraceStep[];
		try {
			proposed = await deps.proposals.propose(request);
		} catch (e) {
			return err(`memory proposals not stored: ${e instanceof Error ? e.message : String(e)}`);
		}
		const written = await inner({ ...request, records: [] });
		return written.ok ? ok([...proposed, ...written.value]) : written;
	};
}

/** Recall with `gatedMemory.memory.reads` applied: excluded tiers are not read, and the trace says so. */
export function gatedRecall(inner: MemoryPort, reads: () => readonly ReadTier[]): MemoryPort {
	return {
		async recall(query, tiers, result, thresholds) {
			const allowed = reads();
			const kept = tiers.filter((t) => allowed.includes(t));
			const dropped = tiers.filter((t) => !allowed.includes(t));
			const notes: TraceStep[] = dropped.map((t) => ({
				kind: 'note',
				stage: 'retrieval',
				level: 'info',
				message: `${t} not recalled: gatedMemory.memory.reads leaves it out`,
			}));
			if (!kept.length) return ok({ chunks: [], steps: notes });
			const r = await inner.recall(query, kept, result, thresholds);
			return r.ok ? ok({ chunks: r.value.chunks, steps: [...r.value.steps, ...notes] }) : r;
		},
		async instructions() {
			return reads().includes('instructions') ? inner.instructions() : ok([]);
		},
		...(inner.fileInstructions
			? {
					fileInstructions: async (
						query: string,
						paths: readonly string[],
						result: Parameters<NonNullable<MemoryPort['fileInstructions']>>[2],
						thresholds: Parameters<NonNullable<MemoryPort['fileInstructions']>>[3],
					) =>
						reads().includes('instructions')
							? inner.fileInstructions!(query, paths, result, thresholds)
							: ok({ instructions: [], steps: [] }),
				}
			: {}),
	};
}

/** A valid read-tier list from a setting's raw value (unknown entries dropped), with what was wrong. */
export function parseReadTiers(raw: unknown): { tiers: ReadTier[]; invalid: string[] } {
	if (!Array.isArray(raw)) return { tiers: [...READ_TIERS], invalid: raw === undefined ? [] : [String(raw)] };
	const tiers: ReadTier[] = [];
	const invalid: string[] = [];
	for (const x of raw) {
		if (typeof x === 'string' && (READ_TIERS as readonly string[]).includes(x)) {
			if (!tiers.includes(x as ReadTier)) tiers.push(x as ReadTier);
		} else invalid.push(String(x));
	}
	return { tiers, invalid };
}

/** A valid write mode from a setting's raw value (default `auto`). */
export function parseWriteMode(raw: unknown): WriteMode {
	return typeof raw === 'string' && (WRITE_MODES as readonly string[]).includes(raw) ? (raw as WriteMode) : 'auto';
}

function note(message: string): TraceStep {
	return { kind: 'note', stage: 'persist', level: 'info', message };
}
