/**
 * The write tools of `gmem mcp`, offered only with `--allow-writes`. remember goes through the
 * chat turn's write path (memoryWriter.persistTurn): the decision core classifies the text, a
 * correction supersedes the memory it contradicts, near-duplicates merge, secrets are redacted.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { decideTurn } from '../../core/decide';
import type { WriteTier } from '../../core/types';
import { persistTurn } from '../../retrieval/memoryWriter';
import { forget } from '../../store/forget';
import { forgetProfileKey, forgetResearchMemory } from '../../store/memoryState';
import { tool, type ToolDef } from './mcpTools';

const remember = tool({
	name: 'remember',
	description:
		'Stores a memory for this workspace through the same write path as a chat turn. The gate decides where (a correction supersedes what it contradicts; "my X is Y" and instructions go to the profile; the rest to research memory) unless `tier` says so. Secrets are redacted before storing.',
	input: z
		.object({
			text: z.string().min(1).describe('What to remember, as the user would say it.'),
			tier: z
				.enum(['research', 'profile'])
				.optional()
				.describe('Where to write; default: what the gate decides (research when it writes nothing).'),
			answer: z.string().optional().describe('For a question: its answer, stored as Q&A.'),
			key: z
				.string()
				.min(1)
				.max(100)
				.optional()
				.describe('A profile fact key (with value); otherwise parsed from "my KEY is VALUE".'),
			value: z.string().min(1).optional(),
		})
		.refine((a) => (a.key === undefined) === (a.value === undefined), { message: 'key and value go together' }),
	writes: true,
	run: async (s, a) => {
		const result = decideTurn({ id: null, history: [], utterance: a.text }, { thresholds: s.thresholds });
		const explicit =
			a.key !== undefined && a.value !== undefined
				? [{ key: a.key, value: a.value, kind: 'fact' as const }]
				: undefined;
		const write: WriteTier[] = a.tier
			? [a.tier]
			: explicit
				? ['profile']
				: result.write.length
					? [...result.write]
					: ['research'];
		const { embedder } = await s.modelsFor();
		const store = await s.openStore();
		const report = await persistTurn(store.db, embedder, s.thresholds, {
			workspaceId: s.workspaceId,
			turnId: `mcp-${randomUUID()}`,
			trigger: result.trigger,
			write,
			question: a.text,
			answer: a.answer ?? '',
			...(explicit ? { profile: explicit } : {}),
		});
		const notes =
			write.includes('profile') && !report.profile.length
				? ['no profile statement found: say "my KEY is VALUE", give key and value, or state an instruction']
				: [];
		return { trigger: result.trigger, route: result.route, write, report, notes };
	},
});

const forgetTool = tool({
	name: 'forget',
	description:
		'Forgets one thing in this workspace: a research memory by its doc id (from inspect_memory), a profile key with its history, or an indexed file by its workspace-relative path.',
	input: z
		.object({
			memory_id: z.string().min(1).optional(),
			profile_key: z.string().min(1).optional(),
			path: z.string().min(1).optional(),
		})
		.refine((a) => [a.memory_id, a.profile_key, a.path].filter((v) => v !== undefined).length === 1, {
			message: 'give exactly one of memory_id, profile_key, path',
		}),
	writes: true,
	run: async (s, a) => {
		const store = await s.openStore();
		if (a.memory_id !== undefined)
			return { forgotten: { research_memory: await forgetResearchMemory(store.db, s.workspaceId, a.memory_id) } };
		if (a.profile_key !== undefined)
			return { forgotten: { profile_entries: await forgetProfileKey(store.db, s.workspaceId, a.profile_key) } };
		return {
			forgotten: await forget(store.db, {
				kind: 'path',
				workspaceId: s.workspaceId,
				path: (a.path ?? '').replace(/\\/g, '/'),
			}),
		};
	},
});

export const WRITE_TOOLS: ToolDef[] = [remember, forgetTool];
