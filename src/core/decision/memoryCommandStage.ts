/**
 * The explicit memory command stage ("remember that …" / "forget that …", intent/memoryCommand.ts),
 * after the rules and the learned gate: a command is a directive to the store, so nothing is
 * searched to answer it and the answer path is direct. Remember writes exactly its target tier
 * (research, or the profile for a fact about the user or a standing instruction); forget writes
 * nothing — the pipeline (src/chat/memoryCommandTurn.ts) finds and forgets the matching memories.
 * Restricted Mode writes nothing. Recorded as the `memory_command` gate step.
 */
import { recogniseMemoryCommand, type MemoryCommand } from '../intent/memoryCommand';
import { setTiers } from '../policy/policyEngine';
import type { TurnInput, WriteTier } from '../types';
import type { Draft } from './resolveDecision';
import type { TraceRecorder } from './traceRecorder';

/** The command as the decision and the trace carry it (`gmem gate` JSON: `memory_command`). */
export type MemoryCommandDecision =
	| { action: 'remember'; text: string; target: 'research' | 'profile' | 'instruction'; rule: string }
	| { action: 'forget'; query: string; rule: string };

function decisionOf(c: MemoryCommand): MemoryCommandDecision {
	return c.action === 'remember'
		? { action: 'remember', text: c.text, target: c.target, rule: c.rule }
		: { action: 'forget', query: c.query, rule: c.rule };
}

/** The draft with the turn's memory command applied (the same draft when there is none). */
export function applyMemoryCommand(input: TurnInput, d: Draft, rec: TraceRecorder): Draft {
	const start = rec.now();
	// A refusal is a hard rule and comes first: "remember that the prod password is …" stays refused.
	if (d.path.path === 'refuse') return d;
	const command = recogniseMemoryCommand(input.utterance);
	if (!command) return d;
	const restricted = input.context?.restricted === true;
	const write: WriteTier[] =
		restricted || command.action === 'forget' ? [] : [command.target === 'research' ? 'research' : 'profile'];
	const policy = { ...d.policy, privacy_mode: false };
	setTiers(policy, []);
	const route = command.action === 'remember' ? 'memory_remember' : 'memory_forget';
	policy.route = route;
	const what =
		command.action === 'remember'
			? `explicit remember (${command.target}): ${write.length ? `writes ${write.join(', ')}` : 'Restricted Mode: writes nothing'}`
			: 'explicit forget: the matching memories are looked up and forgotten, nothing written';
	rec.gate(
		{
			gate: 'memory_command',
			inputs: { rule: command.rule, match: command.match, restricted },
			value: command.action,
			fired: true,
			effect: `${what}; no retrieval, answer direct`,
		},
		start,
	);
	return {
		...d,
		path: { ...d.path, path: 'direct', rule: `memory_command:${command.rule}`, match: command.match },
		policy,
		tiers: [],
		write,
		route,
		command: decisionOf(command),
	};
}
