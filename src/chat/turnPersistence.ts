/**
 * The write half of a chat turn: builds the structured records the decision's `write` tiers call
 * for, lets `before_persist` hooks edit or drop them, and hands exactly what is left to the host's
 * store (research Q&A and corrections, profile updates, plus the conversation tier) — no text is
 * rebuilt or re-parsed on the way. Runs after the reply is
 * shown; a failure is logged and becomes a trace note — the reply is never lost. No `vscode`.
 */
import type { HookRegistry, PersistRecord } from '../core/hooks';
import type { Result } from '../core/result';
import type { ReplyStatus } from '../core/protocol';
import type { DecisionTrace, TraceStep } from '../core/trace';
import type { GateResult, HistoryTurn, TurnContext } from '../core/types';
import { turnRecords } from '../retrieval/memoryWriter';
import { errorMessage, type Logger } from './logger';
import { commandRecords } from './memoryCommandTurn';

/** One turn as the store writes it. */
export interface PersistRequest {
	conversationId: string;
	turnId: string;
	utterance: string;
	/** The reply as shown (the conversation tier's assistant row). */
	answer: string;
	/** The structured records left after `before_persist` hooks, written as they are (empty: only the conversation tier). */
	records: PersistRecord[];
	/** The turn's trace so far (hook steps included); the store adds what it wrote and keeps that final trace. */
	trace: DecisionTrace;
}

/** Writes one turn: the trace steps saying what was written, or `err` with why not (a store failure). Throws only on a bug (caught and logged here). */
export type PersistFn = (request: PersistRequest) => Promise<Result<TraceStep[]>>;

export interface PersistPorts {
	log: Logger;
	persist?: PersistFn;
	hooks?: HookRegistry;
}

/** The turn whose reply is being persisted. */
export interface PersistedTurn {
	turn: { turnId: string; utterance: string; history: HistoryTurn[]; context: TurnContext; conversationId: string };
	result: GateResult;
	answer: string;
	status: ReplyStatus;
	trace: DecisionTrace;
}

/** The records the decision's `write` list asks for (memoryWriter.turnRecords); a stopped reply is no Q&A worth keeping. */
export function recordsFor(p: PersistedTurn): PersistRecord[] {
	// An explicit "remember that …" writes the remembered words themselves (a "forget" writes nothing).
	const command = p.result.memory_command;
	if (command) return command.action === 'remember' && p.result.write.length ? commandRecords(command) : [];
	const stoppedQa = p.status === 'stopped' && p.result.trigger !== 'correction';
	const write = stoppedQa ? p.result.write.filter((t) => t !== 'research') : p.result.write;
	return turnRecords({ trigger: p.result.trigger, write, question: p.turn.utterance, answer: p.answer });
}

/** Runs `before_persist` hooks and the writes. Never rejects; Restricted Mode writes nothing. */
export async function persistReply(ports: PersistPorts, p: PersistedTurn): Promise<TraceStep[]> {
	const steps: TraceStep[] = [];
	if (p.turn.context.restricted === true) {
		steps.push({ kind: 'note', stage: 'persist', level: 'info', message: 'Restricted Mode: nothing written' });
		return steps;
	}
	let records = recordsFor(p);
	if (ports.hooks && ports.hooks.count('before_persist') > 0) {
		records = ports.hooks.run(
			'before_persist',
			{
				turn: { id: p.turn.turnId, history: p.turn.history, utterance: p.turn.utterance, context: p.turn.context },
				records,
			},
			{ steps },
		).records;
	}
	if (!ports.persist) return steps;
	try {
		const trace = { ...p.trace, steps: [...p.trace.steps, ...steps] };
		const written = await ports.persist({
			conversationId: p.turn.conversationId,
			turnId: p.turn.turnId,
			utterance: p.turn.utterance,
			answer: p.answer,
			records,
			trace,
		});
		if (written.ok) steps.push(...written.value);
		else {
			ports.log.warn(`persisting turn ${p.turn.turnId} failed: ${written.error}`);
			steps.push({ kind: 'note', stage: 'persist', level: 'error', message: `not saved to memory: ${written.error}` });
		}
	} catch (e) {
		ports.log.error(
			`persisting turn ${p.turn.turnId} threw (a bug: the store port returns err for store failures): ${errorMessage(e)}`,
		);
		steps.push({ kind: 'note', stage: 'persist', level: 'error', message: `not saved to memory: ${errorMessage(e)}` });
	}
	return steps;
}
