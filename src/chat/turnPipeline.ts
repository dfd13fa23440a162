/**
 * One chat turn end to end, shared by the panel and the `@memory` participant: decide → retrieve
 * the decision's tiers → assemble the prompt → `before_generation` hooks → stream the generator →
 * `after_generation` hooks → the reply (Markdown, citations, status, trace with a generation step).
 * Persisting (`before_persist` hooks, then the write path) is handed back as a thunk the caller
 * runs after showing the reply, so a slow or failing store never delays or loses it.
 * No `vscode` import: ports arrive from the host, and tests drive it with a real store.
 */
import type { EvidenceItem } from '../core/evidence';
import { HookRegistry } from '../core/hooks';
import type { Citation, ReplyStatus, RetrievalOverride } from '../core/protocol';
import type { Thresholds } from '../core/thresholds';
import type { DecisionTrace, TraceStep } from '../core/trace';
import type { GateResult, HistoryTurn, TurnContext, TurnInput } from '../core/types';
import { citationsFor, stripInvalidCitations } from '../generation/citations';
import {
	GenerationError,
	type AssembledPrompt,
	type ChatMessage,
	type GenerationResult,
	type Generator,
} from '../generation/generator';
import { assemblePrompt } from '../generation/promptAssembly';
import { generateWithin, GENERATION_STALL_MS } from './generationBudget';
import type { ActionPlan } from './liveState/actionProposal';
import type { LiveStateHost } from './liveState/liveStatePorts';
import { gatherLiveTurn, planLiveTurn } from './liveState/liveTurn';
import { errorMessage, type Logger } from './logger';
import { decisionBody, describeDecision, retrievalBody, unsearchedWorkspace } from './replyText';
import { gatherEvidence, type MemoryPort, type RetrieveFn, type TurnEvidence } from './turnEvidence';
import { persistReply, type PersistFn } from './turnPersistence';
import { runTurn, type DecideFn } from './turnRunner';
import { forgetReply, rememberReply, type MemoryCommandPort } from './memoryCommandTurn';

/** What the pipeline needs from its host. */
export interface PipelinePorts {
	log: Logger;
	retrieve?: RetrieveFn;
	memory?: MemoryPort;
	persist?: PersistFn;
	/** A workspace-relative path → a `file:` URI inside the folder it came from (null: not openable). */
	toUri?: (path: string) => string | null;
	/** Experiment hooks (all four points); a retry's one-shot `policy_override` is added per turn. */
	hooks?: HookRegistry;
	decide?: DecideFn;
	/** Longest silence from the generator before the turn stops waiting (default GENERATION_STALL_MS; tests shorten it). */
	generationStallMs?: number;
	/** Live editor state (diagnostics, editor, git, symbols, terminal); absent: headless, said in the trace. */
	live?: LiveStateHost;
	/** What this host cannot offer, said in every turn's trace (the CLI: "no live state in the CLI"). */
	hostNotes?: readonly string[];
	/** Explicit "remember that …" / "forget that …": the write mode in force and the store to forget in. */
	memoryCommands?: MemoryCommandPort;
}

/** One turn to answer. */
export interface PipelineTurn {
	turnId: string;
	utterance: string;
	/** The decision core's history window. */
	history: HistoryTurn[];
	/** Earlier messages for the model (the host trims them to `conversation_window_turns`). */
	chat: ChatMessage[];
	context: TurnContext;
	thresholds: Thresholds;
	retrieval: RetrievalOverride;
	generator: Generator;
	/** Aborted by Stop, New Conversation or switching conversations. */
	signal: AbortSignal;
	conversationId: string;
}

/** What the pipeline tells the panel while it works. */
export interface TurnSink {
	progress(message: string): void;
	/** The reply starts streaming (the panel shows an entry with a Stop button). */
	start(generator: string): void;
	delta(text: string): void;
}

/** A reply (complete or stopped), or a failure to show with its user message kept. */
export type PipelineOutcome =
	| {
			kind: 'reply';
			markdown: string;
			citations: Citation[];
			status: ReplyStatus;
			trace: DecisionTrace;
			generator: string;
			/** What the decision core's history window carries for this reply. */
			historyText: string;
			result: GateResult;
			/** Runs `before_persist` and the writes; resolves to the steps to add to the trace. Never rejects. */
			persist: () => Promise<TraceStep[]>;
			/** Actions proposed for the user to click, with what the host runs for each. */
			actions?: ActionPlan[];
	  }
	| { kind: 'error'; message: string; retryable: boolean; trace: DecisionTrace | null; result: GateResult | null };

/** Tiers a forced retry searches: the workspace and research memory (profile only when decided). */
const FORCED_TIERS = ['workspace', 'research'] as const;

/** Answers one turn. Never rejects: every failure becomes an `error` outcome or a trace note. */
export async function runPipeline(ports: PipelinePorts, turn: PipelineTurn, sink: TurnSink): Promise<PipelineOutcome> {
	const restricted = turn.context.restricted === true;
	const release = retrievalOverrideHook(ports, turn.retrieval);
	const outcome = runTurn(
		{
			turnId: turn.turnId,
			utterance: turn.utterance,
			history: turn.history,
			context: turn.context,
			thresholds: turn.thresholds,
			hooks: release.hooks,
		},
		ports.log,
		ports.decide,
	);
	release.dispose();
	if (!outcome.ok) return { kind: 'error', message: outcome.message, retryable: false, trace: null, result: null };
	const result = outcome.result;
	const steps: TraceStep[] = [...result.trace.steps];
	for (const message of ports.hostNotes ?? []) steps.push({ kind: 'note', stage: 'host', level: 'info', message });
	const traceNow = (): DecisionTrace => ({ ...result.trace, steps: [...steps] });

	const generator = turn.generator;
	if (result.memory_command) return answerMemoryCommand(ports, turn, result, steps, traceNow, generator.info.label);
	const evidenceOnly = generator.info.kind === 'evidence';
	const planned = planLiveTurn(turn.utterance, result, restricted);
	const [found, live] = await Promise.all([
		gatherEvidence(
			ports,
			turn.utterance,
			planned.searchResult,
			turn.thresholds,
			restricted,
			(m) => sink.progress(m),
			!evidenceOnly,
		),
		gatherLiveTurn(ports.live, planned, {
			utterance: turn.utterance,
			thresholds: turn.thresholds,
			signal: turn.signal,
			restricted,
		}),
	]);
	steps.push(...live.steps, ...found.steps);
	found.evidence.unshift(...live.evidence);
	if (turn.signal.aborted) return stoppedEarly(ports, turn, result, traceNow(), generator.info.label);

	// A search ran when a tier answered at all (a host without a store searches nothing).
	const searched =
		found.workspace !== null || found.evidence.length > 0 || found.steps.some((s) => s.kind === 'retrieval');
	const workspaceDown = unsearchedWorkspace(found.workspace);
	// Evidence-only mode with no evidence to quote: the decision (and why the workspace could not be searched) is the reply.
	if (evidenceOnly && found.evidence.length === 0 && (!searched || workspaceDown)) {
		const decided = workspaceDown
			? `${retrievalBody(workspaceDown)}\n\n${decisionBody(result, restricted, true)}`
			: describeDecision(result, turn.utterance, restricted);
		const markdown = live.markdown ? `${live.markdown}\n\n${decided}` : decided;
		steps.push({ kind: 'generation', generator: generator.info.label, model: 'evidence-only', status: 'ok', ms: 0 });
		return reply(ports, turn, result, traceNow(), {
			markdown,
			citations: [],
			status: 'done',
			generator: generator.info.label,
			historyText: decisionBody(result, restricted, searched),
			actions: live.plans,
		});
	}

	let prompt = assemblePrompt({
		utterance: turn.utterance,
		history: turn.chat,
		evidence: found.evidence,
		instructions: found.instructions,
		budgetTokens: turn.thresholds.prompt_evidence_budget_tokens,
		route: result.route,
	});
	if (prompt.utteranceCut) {
		const total = turn.utterance.length.toLocaleString('en-US');
		steps.push({
			kind: 'note',
			stage: 'prompt',
			level: 'warn',
			message: `your message is ${total} characters: its middle (${prompt.utteranceCut.toLocaleString('en-US')} characters) was left out of the prompt, marked where it was cut`,
		});
	}
	if (prompt.dropped.length)
		steps.push({
			kind: 'note',
			stage: 'prompt',
			level: 'info',
			message: `left out of the prompt: ${prompt.dropped.map((d) => `${d.source} (${d.reason})`).join('; ')}`,
		});
	prompt = beforeGeneration(ports, turn, result, prompt, found, steps);
	steps.push({
		kind: 'note',
		stage: 'prompt',
		level: 'info',
		message: `prompt ~${prompt.tokens} tokens: ${prompt.evidence.length} evidence block${prompt.evidence.length === 1 ? '' : 's'} (budget ${turn.thresholds.prompt_evidence_budget_tokens}), ${turn.chat.length} earlier message${turn.chat.length === 1 ? '' : 's'}, ${found.instructions.length} standing instruction${found.instructions.length === 1 ? '' : 's'}`,
	});

	sink.start(generator.info.label);
	const t0 = performance.now();
	let generated: GenerationResult;
	try {
		const request = {
			prompt,
			signal: turn.signal,
			onDelta: (text: string) => sink.delta(text),
			maxTokens: turn.thresholds.generation_max_tokens,
		};
		generated = await generateWithin(generator, request, ports.generationStallMs ?? GENERATION_STALL_MS);
	} catch (e) {
		const err = e instanceof GenerationError ? e : new GenerationError('unavailable', errorMessage(e), false);
		ports.log.warn(`generation failed (${err.code}): ${err.message}`);
		steps.push({
			kind: 'generation',
			generator: generator.info.label,
			status: 'error',
			error: `${err.code}: ${err.message}`,
			ms: Math.round(performance.now() - t0),
		});
		return { kind: 'error', message: err.message, retryable: err.retryable, trace: traceNow(), result };
	}
	const stopped = generated.finish === 'cancelled' || turn.signal.aborted;
	steps.push({
		kind: 'generation',
		generator: generator.info.label,
		model: generated.model,
		status: stopped ? 'cancelled' : 'ok',
		ms: Math.round(generated.ms),
	});
	if (generated.finish === 'length')
		steps.push({
			kind: 'note',
			stage: 'generation',
			level: 'warn',
			message: `reply cut at generation_max_tokens (${turn.thresholds.generation_max_tokens})`,
		});

	let text = generated.text;
	if (ports.hooks && ports.hooks.count('after_generation') > 0) {
		text = ports.hooks.run(
			'after_generation',
			{ turn: turnInput(turn), route: result.route, response: text },
			{ steps },
		).response;
	}
	const cleaned = stripInvalidCitations(text, prompt.evidence);
	if (cleaned.removed.length)
		steps.push({
			kind: 'note',
			stage: 'generation',
			level: 'warn',
			message: `removed citation markers with no evidence: ${cleaned.removed.map((n) => `[${n}]`).join(' ')}`,
		});
	const citations = citationsFor(cleaned.text, prompt.evidence, (p) => ports.toUri?.(p) ?? null);
	const parts = [
		cleaned.text.trim() || (stopped ? '*Stopped before any text arrived.*' : '*The model returned no text.*'),
	];
	if (live.markdown) parts.push(live.markdown);
	if (evidenceOnly) parts.push(decisionBody(result, restricted, true));
	// A model answered without the workspace (not indexed, search failed): say so under its answer.
	else if (workspaceDown) parts.push(retrievalBody(workspaceDown));
	const markdown = parts.join('\n\n');
	return reply(ports, turn, result, traceNow(), {
		markdown,
		citations,
		status: stopped ? 'stopped' : 'done',
		generator: generator.info.label,
		historyText: evidenceOnly ? decisionBody(result, restricted, true) : cleaned.text,
		actions: live.plans,
	});
}

/**
 * An explicit memory command: the confirmation is the reply (no generator). A remember is written
 * by the persist thunk like any turn's writes (the write mode applies there); a forget happens here.
 */
async function answerMemoryCommand(
	ports: PipelinePorts,
	turn: PipelineTurn,
	result: GateResult,
	steps: TraceStep[],
	traceNow: () => DecisionTrace,
	label: string,
): Promise<PipelineOutcome> {
	const command = result.memory_command!;
	const restricted = turn.context.restricted === true;
	let markdown: string;
	let actions: ActionPlan[] = [];
	if (command.action === 'remember') {
		const mode = ports.persist ? (ports.memoryCommands?.writeMode() ?? 'auto') : null;
		markdown = rememberReply(command, mode, restricted);
	} else {
		const out = await forgetReply(ports.memoryCommands, command.query, result, turn.thresholds, restricted);
		markdown = out.markdown;
		actions = out.plans;
		steps.push(...out.steps);
	}
	steps.push({ kind: 'generation', generator: label, model: 'memory-command', status: 'ok', ms: 0 });
	return reply(ports, turn, result, traceNow(), {
		markdown,
		citations: [],
		status: 'done',
		generator: label,
		historyText: markdown,
		actions,
	});
}

/** Registers the retry's one-shot `policy_override` (shown in the trace as a hook step). */
function retrievalOverrideHook(
	ports: PipelinePorts,
	retrieval: RetrievalOverride,
): { hooks: HookRegistry | undefined; dispose: () => void } {
	if (retrieval === 'auto') return { hooks: ports.hooks, dispose: () => undefined };
	const hooks = ports.hooks ?? new HookRegistry();
	const dispose =
		retrieval === 'force'
			? hooks.register('policy_override', 'retry: retrieval forced', (p) => {
					for (const t of FORCED_TIERS) if (!p.tiers.includes(t)) p.tiers.push(t);
					if (p.path !== 'refuse') p.path = 'rag';
				})
			: hooks.register('policy_override', 'retry: retrieval skipped', (p) => {
					p.tiers = [];
					if (p.path === 'rag') p.path = 'direct';
				});
	return { hooks, dispose };
}

/** Runs `before_generation` hooks over the system prompt and evidence blocks; adopts their edits. */
function beforeGeneration(
	ports: PipelinePorts,
	turn: PipelineTurn,
	result: GateResult,
	prompt: AssembledPrompt,
	found: TurnEvidence,
	steps: TraceStep[],
): AssembledPrompt {
	if (!ports.hooks || ports.hooks.count('before_generation') === 0) return prompt;
	const system = prompt.messages[0]?.role === 'system' ? prompt.messages[0].content : '';
	const blocks = prompt.evidence.map((e) => e.text);
	const out = ports.hooks.run(
		'before_generation',
		{ turn: turnInput(turn), route: result.route, system_prompt: system, context_blocks: blocks },
		{ steps },
	);
	let next = prompt;
	if (JSON.stringify(out.context_blocks) !== JSON.stringify(blocks)) {
		// Blocks edited or dropped by a hook: re-assemble from them (extra blocks keep the last one's source).
		const evidence = out.context_blocks.map((text, i) => {
			const e = prompt.evidence[Math.min(i, prompt.evidence.length - 1)] ?? {
				tier: 'workspace' as const,
				path: null,
				startLine: null,
				endLine: null,
			};
			const item: EvidenceItem = {
				source: e.tier,
				path: e.path,
				startLine: e.startLine,
				endLine: e.endLine,
				symbol: null,
				text,
				citation: 'source' in e ? e.source : 'hook',
			};
			return item;
		});
		next = assemblePrompt({
			utterance: turn.utterance,
			history: turn.chat,
			evidence,
			instructions: found.instructions,
			budgetTokens: turn.thresholds.prompt_evidence_budget_tokens,
			route: result.route,
		});
	}
	if (out.system_prompt !== system && next.messages[0]?.role === 'system') {
		next = { ...next, messages: [{ role: 'system', content: out.system_prompt }, ...next.messages.slice(1)] };
	}
	return next;
}

function turnInput(turn: PipelineTurn): TurnInput {
	return { id: turn.turnId, history: turn.history, utterance: turn.utterance, context: turn.context };
}

function stoppedEarly(
	ports: PipelinePorts,
	turn: PipelineTurn,
	result: GateResult,
	trace: DecisionTrace,
	label: string,
): PipelineOutcome {
	trace.steps.push({ kind: 'generation', generator: label, status: 'cancelled', ms: 0 });
	return reply(ports, turn, result, trace, {
		markdown: '*Stopped before any text arrived.*',
		citations: [],
		status: 'stopped',
		generator: label,
		historyText: '',
	});
}

function reply(
	ports: PipelinePorts,
	turn: PipelineTurn,
	result: GateResult,
	trace: DecisionTrace,
	r: {
		markdown: string;
		citations: Citation[];
		status: ReplyStatus;
		generator: string;
		historyText: string;
		actions?: ActionPlan[];
	},
): PipelineOutcome {
	return {
		kind: 'reply',
		...r,
		trace,
		result,
		persist: () => persistReply(ports, { turn, result, answer: r.markdown, status: r.status, trace }),
	};
}
