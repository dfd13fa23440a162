/**
 * The read tools of `gmem mcp`: each is the product's own function with the CLI's defaults —
 * decideTurn (as `gmem gate`), retrieveWorkspace (as `gmem search`), recallMemories (as a chat
 * turn's research/profile recall: never a superseded memory), memoryState (as Inspect Memory State).
 */
import { z } from 'zod';
import { decideTurn } from '../../core/decide';
import type { HistoryTurn } from '../../core/types';
import { recallMemories, standingInstructions } from '../../retrieval/memoryRecall';
import { retrieveWorkspace } from '../../retrieval/workspaceRetrieval';
import { memoryState } from '../../store/memoryState';
import { gateOutput } from '../commands/gateCommand';
import type { McpSession } from './mcpSession';

/** One tool: its schema (validated on every call), whether it writes, and what it does. */
export interface ToolDef<S extends z.ZodObject = z.ZodObject> {
	name: string;
	description: string;
	input: S;
	writes: boolean;
	run: (session: McpSession, args: z.infer<S>) => Promise<unknown>;
}

/** Defines a tool, keeping its argument type tied to its schema. */
export function tool<S extends z.ZodObject>(def: ToolDef<S>): ToolDef {
	return def as unknown as ToolDef;
}

const history = z
	.array(z.union([z.string(), z.object({ role: z.enum(['user', 'assistant']), content: z.string() })]))
	.default([])
	.describe('Earlier turns, oldest first; a bare string is a user turn.');

/** History as decideTurn takes it (a bare string is a user turn, as in `gmem gate`). */
export function historyTurns(h: z.infer<typeof history>): HistoryTurn[] {
	return h.map((t) => (typeof t === 'string' ? { role: 'user', content: t } : t));
}

const decide = tool({
	name: 'decide_turn',
	description:
		'How Gated Memory decides a turn: follow-up score, trigger, answer path, which stored tiers to search and what to write — with the full decision trace. Pure rules, no store access.',
	input: z.object({ message: z.string().min(1).describe('The user message to decide.'), history }),
	writes: false,
	run: async (s, a) =>
		gateOutput(
			decideTurn({ id: null, history: historyTurns(a.history), utterance: a.message }, { thresholds: s.thresholds }),
		),
});

const search = tool({
	name: 'search_workspace',
	description:
		"Searches this workspace's index as a chat turn does (BM25 + vectors, RRF, rerank; `gmem search`'s defaults). Returns the chunks with path and lines, and the retrieval trace.",
	input: z.object({
		query: z.string().min(1),
		k: z.number().int().min(1).max(50).default(10).describe('How many hits (default 10, as gmem search).'),
		files: z.boolean().default(false).describe('One hit per file (its best chunk), k files.'),
	}),
	writes: false,
	run: async (s, a) => {
		const config = s.searchConfig(a.k);
		const { embedder, reranker } = await s.modelsFor();
		const store = await s.openStore();
		const out = await retrieveWorkspace(store.db, {
			query: a.query,
			tier: 'workspace',
			workspaceIds: [s.workspaceId],
			folderNames: [s.folderName],
			k: a.k,
			embedder,
			reranker,
			floor: config.floor,
			files: a.files,
			thresholds: s.thresholds,
		});
		const hits = out.hits.map((h) => ({
			path: h.path,
			start_line: h.start_line,
			end_line: h.end_line,
			symbol: h.symbol,
			score: h.score,
			rerank: h.rerank,
			text: h.content,
		}));
		return { query: a.query, searched_query: out.searched_query, hits, notes: out.notes, trace: out.steps };
	},
});

const recall = tool({
	name: 'recall_memory',
	description:
		'Recalls research memory (past Q&A, decisions, corrections — never a superseded one) and profile facts and preferences for a query, plus the standing instructions; with the recall trace.',
	input: z.object({
		query: z.string().min(1),
		tiers: z
			.array(z.enum(['research', 'profile']))
			.min(1)
			.default(['research', 'profile']),
	}),
	writes: false,
	run: async (s, a) => {
		// The decision supplies the policy (how many memories, the similarity floor), as in a chat turn.
		const result = decideTurn({ id: null, history: [], utterance: a.query }, { thresholds: s.thresholds });
		const { embedder } = await s.modelsFor();
		const store = await s.openStore();
		const ids = [s.workspaceId];
		const recalled = await recallMemories(store.db, {
			query: a.query,
			tiers: [...new Set(a.tiers)],
			workspaceIds: ids,
			result,
			embedder,
			thresholds: s.thresholds,
		});
		const memories = recalled.chunks.map((c) => ({ tier: c.source, label: c.citation ?? '', text: c.text }));
		return { query: a.query, memories, instructions: await standingInstructions(store.db, ids), trace: recalled.steps };
	},
});

const inspect = tool({
	name: 'inspect_memory',
	description:
		"What Gated Memory holds for this workspace: per-tier counts, profile facts and instructions, recent memories (superseded ones marked), corrections, recent decisions, the store's engine and schema.",
	input: z.object({}),
	writes: false,
	run: async (s) => {
		const store = await s.openStore();
		const state = await memoryState(store.db, [s.workspaceId]);
		return {
			store: { engine: store.engine, where: store.where, schema_version: store.schemaVersion, scope: store.scope },
			workspace_id: s.workspaceId,
			...state,
		};
	},
});

export const READ_TOOLS: ToolDef[] = [decide, search, recall, inspect];
