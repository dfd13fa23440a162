/**
 * The write half of a chat turn: builds the records the decision's `write` tiers call for, lets
 * `before_persist` hooks edit or drop them, and hands what is left to the host's store (research
 * Q&A and corrections, profile updates, plus the conversation tier). Runs after the reply is
 * shown; a failure is logged and becomes a trace note — the reply is never lost. No `vscode`.
 */
import type { HookRegistry, PersistRecord } from '../core/hooks';
import type { ReplyStatus } from '../core/protocol';
import type { DecisionTrace, TraceStep } from '../core/trace';
import type { GateResult, HistoryTurn, TurnContext, Trigger, WriteTier } from '../core/types';
import { errorMessage, type Logger } from './logger';

/** One turn as the store writes it. */
export interface PersistRequest {
	conversationId: string;
	turnId: string;
	utterance: string;
	answer: string;
	trigger: Trigger;
	/** The tiers still to write after `before_persist` hooks (empty: only the conversation tier). */
	write: WriteTier[];
	trace: DecisionTrace;
}

/** Writes one turn; resolves to trace steps saying what was written. May reject (caught here). */
export type PersistFn = (request: PersistRequest) => Promise<TraceStep[]>;

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

/** The records the decision's `write` list asks for; a stopped reply is no Q&A worth keeping. */
export function recordsFor(p: PersistedTurn): PersistRecord[] {
	const records: PersistRecord[] = [];
	const { utterance } = p.turn;
	for (const tier of p.result.write) {
		if (tier === 'research') {
			const correction = p.result.trigger === 'correction';
			if (p.status === 'stopped' && !correction) continue;
			records.push({ tier, text: correction ? utterance : `Q: ${utterance}\nA: ${p.answer}`, metadata: { kind: correction ? 'correction' : 'qa', question: utterance } });
		} else {
			records.push({ tier, text: utterance, metadata: { kind: 'profile' } });
		}
	}
	return records;
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
		records = ports.hooks.run('before_persist', { turn: { id: p.turn.turnId, history: p.turn.history, utterance: p.turn.utterance, context: p.turn.context }, records }, { steps }).records;
	}
	if (!ports.persist) return steps;
	const write = [...new Set(records.map((r) => r.tier))];
	const research = records.find((r) => r.tier === 'research');
	// A hook may rewrite the Q&A text; the answer part is what follows "A: ".
	const answer = research && research.metadata.kind === 'qa' ? (/^Q: [\s\S]*?\nA: ([\s\S]*)$/.exec(research.text)?.[1] ?? research.text) : p.answer;
	try {
		steps.push(
			...(await ports.persist({ conversationId: p.turn.conversationId, turnId: p.turn.turnId, utterance: p.turn.utterance, answer, trigger: p.result.trigger, write, trace: p.trace })),
		);
	} catch (e) {
		ports.log.error(`persisting turn ${p.turn.turnId} failed: ${errorMessage(e)}`);
		steps.push({ kind: 'note', stage: 'persist', level: 'error', message: `not saved to memory: ${errorMessage(e)}` });
	}
	return steps;
}
