/**
 * The A/B through the product's own turn: the same labelled conversations replayed through
 * `gmem chat`'s pipeline (ChatHost: the editor's ChatController, workspace retrieval with the
 * extension's models, memory recall, prompt assembly, evidence-only generation) on the eval store.
 *   - gated-memory (pipeline): the turn as the product runs it;
 *   - always-retrieve (pipeline): the same turn with a `policy_override` hook that searches the
 *     workspace and research tiers on every turn (the retry's "retrieval forced" override).
 * What reached the prompt is read where it happens — a `before_generation` hook sees the evidence
 * blocks — and the doc ids from the turn's trace (retrieval hits, the evidence step's selection).
 * Nothing is written (read-only host), so both arms see the same store. Each labelled conversation
 * is a new conversation, and its recorded assistant replies stand for the generated ones in the
 * history (`gmem chat`'s assistant rows), so the pipeline decides on the same history as the
 * `gated-memory` arm does.
 */
import { HookRegistry } from '../core/hooks';
import type { Thresholds } from '../core/thresholds';
import type { DecisionTrace, TraceHit } from '../core/trace';
import { EvidenceOnlyGenerator } from '../generation/evidenceOnlyGenerator';
import type { Logger } from '../chat/logger';
import type { ModelSettings } from '../chat/modelsRuntime';
import type { ChunkTier } from '../store/chunkRepo';
import { ChatHost } from './chatHost';
import { CHARS_PER_TOKEN, type ArmTurn, type InjectedChunk } from './evalAbArms';
import type { LabelledTurn } from './evalShared';
import type { EvalStore } from './evalStore';

export const PIPELINE_GATED = 'gated-memory (pipeline)';
export const PIPELINE_ALWAYS = 'always-retrieve (pipeline)';

/** What the pipeline arms run with. */
export interface PipelineArmContext {
	es: EvalStore;
	thresholds: Thresholds;
	/** The extension's model settings to run (default: built-in embedder and reranker). */
	models: Partial<ModelSettings>;
	log: Logger;
}

/** Replays every turn through one pipeline arm; resolves to one outcome per turn, in order. */
export async function replayPipeline(
	ctx: PipelineArmContext,
	name: typeof PIPELINE_GATED | typeof PIPELINE_ALWAYS,
	turns: readonly LabelledTurn[],
): Promise<ArmTurn[]> {
	const hooks = new HookRegistry();
	let blocks: string[] = [];
	hooks.register(
		'before_generation',
		'eval: evidence that reached the prompt',
		(p) => void (blocks = [...p.context_blocks]),
	);
	if (name === PIPELINE_ALWAYS) {
		hooks.register('policy_override', 'eval: always retrieve', (p) => {
			for (const t of ['workspace', 'research'] as const) if (!p.tiers.includes(t)) p.tiers.push(t);
			if (p.path !== 'refuse') p.path = 'rag';
		});
	}
	const host = new ChatHost({
		location: ctx.es.location,
		workspace: ctx.es.folder,
		thresholds: ctx.thresholds,
		generator: new EvidenceOnlyGenerator(),
		log: ctx.log,
		hooks,
		readOnly: true,
		models: ctx.models,
	});
	const out: ArmTurn[] = [];
	try {
		let conversation: string | null = null;
		for (const [i, turn] of turns.entries()) {
			if (conversation !== null && turn.conversationId !== conversation) await host.newConversation();
			conversation = turn.conversationId;
			blocks = [];
			const t0 = performance.now();
			const said = await host.say(turn.utterance);
			out.push(armTurn(said.trace, blocks, performance.now() - t0));
			const reply = recordedReply(turns, i);
			if (reply !== null) host.recordReply(reply);
		}
	} finally {
		await host.dispose();
	}
	return out;
}

/** The recorded assistant reply to turn `i`: the last message of the next turn's history in the same conversation. */
export function recordedReply(turns: readonly LabelledTurn[], i: number): string | null {
	const next = turns[i + 1];
	if (!next || next.conversationId !== turns[i].conversationId) return null;
	const last = next.history.at(-1);
	return last && last.role === 'assistant' ? last.content : null;
}

/** One turn's outcome from its final trace and the evidence blocks its prompt held. */
export function armTurn(trace: DecisionTrace | null, blocks: readonly string[], ms: number): ArmTurn {
	if (!trace) return { retrieved: false, searches: 0, evidence: [], ms };
	const retrievals = trace.steps.filter((s) => s.kind === 'retrieval');
	const ids = evidenceIds(trace);
	// Blocks are in prompt order (workspace first, then memories), as the ids are.
	const evidence: InjectedChunk[] = blocks.map((text, i) => ({
		doc_id: ids[i]?.doc_id ?? `block:${i + 1}`,
		tier: ids[i]?.tier ?? 'workspace',
		tokens: Math.ceil(text.length / CHARS_PER_TOKEN),
	}));
	return { retrieved: trace.decision.retrieve, searches: retrievals.length, evidence, ms };
}

/** Doc ids of the evidence in prompt order: the workspace evidence step's selection, then the research hits recalled. */
function evidenceIds(trace: DecisionTrace): { doc_id: string; tier: ChunkTier }[] {
	const byChunk = new Map<string, TraceHit>();
	const research: { doc_id: string; tier: ChunkTier }[] = [];
	for (const s of trace.steps) {
		if (s.kind !== 'retrieval') continue;
		for (const h of s.hits) byChunk.set(h.chunk_id, h);
		if (s.tier === 'research') research.push(...s.hits.map((h) => ({ doc_id: h.id, tier: 'research' as const })));
	}
	const evidence = trace.steps.find((s) => s.kind === 'evidence');
	const workspace =
		evidence && evidence.kind === 'evidence'
			? evidence.selected.map((c) => ({ doc_id: byChunk.get(c)?.id ?? c, tier: 'workspace' as const }))
			: [];
	return [...workspace, ...research];
}
