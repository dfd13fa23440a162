/**
 * The retrieval half of a chat turn: searches only the tiers the decision named (the workspace
 * through WorkspaceMemory, research and profile through memory recall when it is wired) and
 * always reads the standing instructions. Evidence comes back in the pipeline's order (workspace
 * first, then memories), ready for prompt assembly. Never throws: a failing tier becomes a trace
 * note and the turn goes on with what the others found. No `vscode` import.
 */
import type { Result } from '../core/result';
import type { Thresholds } from '../core/thresholds';
import type { TraceStep } from '../core/trace';
import type { GateResult } from '../core/types';
import type { EvidenceItem } from '../core/evidence';
import { errorMessage, type Logger } from './logger';
import type { RetrievalReply } from './workspaceMemory';

/** Searches the workspace tier for a turn (WorkspaceMemory.retrieve); never throws. */
export type RetrieveFn = (query: string, result: GateResult, thresholds: Thresholds) => Promise<RetrievalReply>;

/** What recall found: evidence and the retrieval steps for the trace. */
export interface Recalled {
	chunks: EvidenceItem[];
	steps: TraceStep[];
}

/**
 * Research/profile recall and standing instructions (src/retrieval/memoryRecall.ts behind the
 * host's store). An expected failure (store down, locked) is an `err` with its message; a throw is a bug.
 */
export interface MemoryPort {
	recall(
		query: string,
		tiers: ('research' | 'profile')[],
		result: GateResult,
		thresholds: Thresholds,
	): Promise<Result<Recalled>>;
	/** The user's standing instructions ("keep answers short"), applied on every turn. */
	instructions(): Promise<Result<string[]>>;
	/** The instruction files' sections this turn applies (src/retrieval/instructionRecall.ts), with their trace notes. */
	fileInstructions?(
		query: string,
		paths: readonly string[],
		result: GateResult,
		thresholds: Thresholds,
	): Promise<Result<{ instructions: string[]; steps: TraceStep[] }>>;
}

/** What the retrieval half found for a turn. */
export interface TurnEvidence {
	evidence: EvidenceItem[];
	instructions: string[];
	steps: TraceStep[];
	/** The workspace search's answer, when the workspace tier was searched. */
	workspace: RetrievalReply | null;
}

export interface EvidencePorts {
	log: Logger;
	retrieve?: RetrieveFn;
	memory?: MemoryPort;
}

/**
 * Retrieves the decision's tiers. `progress` is told what is being searched ("Searching
 * workspace…") so the panel shows activity before any text arrives. Restricted Mode searches
 * nothing and reads no instructions (chat over the conversation only).
 */
export async function gatherEvidence(
	ports: EvidencePorts,
	query: string,
	result: GateResult,
	thresholds: Thresholds,
	restricted: boolean,
	progress: (message: string) => void,
	/** False in evidence-only mode: no model reads instructions, so the store is not opened for them. */
	wantInstructions = true,
): Promise<TurnEvidence> {
	const out: TurnEvidence = { evidence: [], instructions: [], steps: [], workspace: null };
	if (restricted) return out;
	const tiers = result.retrieve ? result.tiers : [];
	const searchWorkspace = tiers.includes('workspace');
	const memoryTiers = tiers.filter((t): t is 'research' | 'profile' => t === 'research' || t === 'profile');
	const searched = [
		...(searchWorkspace && ports.retrieve ? ['workspace'] : []),
		...(memoryTiers.length && ports.memory ? [`${memoryTiers.join(' and ')} memory`] : []),
	];
	if (searched.length) progress(`Searching ${searched.join(' and ')}…`);
	// The tiers are independent reads: they run at once (on a server pool, on separate
	// connections), and their evidence and trace steps are joined in the pipeline's order after.
	const instructionNotes: TraceStep[] = [];
	const [workspace, recalled, instructions] = await Promise.all([
		searchWorkspace && ports.retrieve
			? safely(
					ports.log,
					'workspace retrieval',
					() => ports.retrieve!(query, result, thresholds),
					(message): RetrievalReply => ({ status: 'error', message, steps: [] }),
				)
			: null,
		memoryTiers.length && ports.memory
			? safely(
					ports.log,
					'memory recall',
					() => ports.memory!.recall(query, memoryTiers, result, thresholds),
					(message): Recalled => ({ chunks: [], steps: [note('error', `memory recall failed: ${message}`)] }),
				)
			: null,
		ports.memory && wantInstructions
			? safely(
					ports.log,
					'standing instructions',
					() => ports.memory!.instructions(),
					(message): string[] => {
						instructionNotes.push(note('warn', `standing instructions not read: ${message}`));
						return [];
					},
				)
			: [],
	]);
	if (workspace) {
		out.workspace = workspace;
		out.steps.push(...workspace.steps);
		if (workspace.status === 'evidence') out.evidence.push(...workspace.chunks);
	} else if (searchWorkspace) {
		out.steps.push(note('info', 'workspace tier not searched: no workspace store in this host'));
	}
	if (recalled) {
		out.steps.push(...recalled.steps);
		out.evidence.push(...recalled.chunks);
	} else if (memoryTiers.length) {
		out.steps.push(note('info', `${memoryTiers.join(' + ')} not searched: memory recall is not wired in this build`));
	}
	out.instructions = instructions;
	out.steps.push(...instructionNotes);
	// Instruction-file sections are gated on this turn's message and the files its evidence is from.
	if (ports.memory?.fileInstructions && wantInstructions) {
		const paths = out.evidence.flatMap((e) => (e.path ? [e.path] : []));
		const files = await safely(
			ports.log,
			'instruction files',
			() => ports.memory!.fileInstructions!(query, paths, result, thresholds),
			(message) => ({ instructions: [] as string[], steps: [note('warn', `instruction files not read: ${message}`)] }),
		);
		out.instructions = [...instructions, ...files.instructions];
		out.steps.push(...files.steps);
	}
	if (out.instructions.length)
		out.steps.push(
			note(
				'info',
				`applied ${out.instructions.length} standing instruction${out.instructions.length === 1 ? '' : 's'}`,
			),
		);
	return out;
}

function note(level: 'info' | 'warn' | 'error', message: string): TraceStep {
	return { kind: 'note', stage: 'retrieval', level, message };
}

/** Unwraps a port's Result (an `err` is an expected failure: logged as a warning, noted in the trace) or survives its throw (a bug: logged as an error). */
async function safely<T>(
	log: Logger,
	what: string,
	run: () => Promise<T | Result<T>>,
	fallback: (message: string) => T,
): Promise<T> {
	try {
		const out = await run();
		if (!isResult(out)) return out;
		if (out.ok) return out.value;
		log.warn(`${what} failed: ${out.error}`);
		return fallback(out.error);
	} catch (e) {
		// A port that throws has a bug; the turn still gets an answer.
		log.error(`${what} threw (a bug: ports return err for expected failures): ${errorMessage(e)}`);
		return fallback(errorMessage(e));
	}
}

function isResult<T>(x: T | Result<T>): x is Result<T> {
	return (
		typeof x === 'object' &&
		x !== null &&
		'ok' in x &&
		typeof (x as { ok: unknown }).ok === 'boolean' &&
		('value' in x || 'error' in x)
	);
}
