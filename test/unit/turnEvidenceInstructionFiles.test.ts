/**
 * The one point where instruction-file sections join a turn: gatherEvidence asks the memory port
 * for them after the tiers were searched, with the evidence's paths, appends them after the
 * instructions stated in chat, and keeps their trace notes; never in evidence-only mode or in
 * Restricted Mode; a failing port is a warning note, not the turn's failure.
 */
import assert from 'node:assert/strict';
import { decideTurn } from '../../src/core/decide';
import { DEFAULT_THRESHOLDS } from '../../src/core/thresholds';
import type { TraceStep } from '../../src/core/trace';
import type { GateResult } from '../../src/core/types';
import { err, ok } from '../../src/core/result';
import { gatherEvidence, type MemoryPort, type RetrieveFn } from '../../src/chat/turnEvidence';
import { quietLogger as quiet } from '../fixtures/hostDoubles';

const wsChunk = {
	source: 'workspace' as const,
	path: 'db/schema.sql',
	startLine: 1,
	endLine: 2,
	symbol: null,
	text: 'CREATE TABLE t ();',
};
const retrieve: RetrieveFn = async () => ({ status: 'evidence', chunks: [wsChunk], notes: [], steps: [] });

function decision(): GateResult {
	const r = decideTurn({
		utterance: 'How is the schema in db/schema.sql created?',
		history: [],
		context: { now: Date.now() },
	});
	return { ...r, retrieve: true, tiers: ['workspace'] };
}

function port(calls: { query: string; paths: readonly string[] }[], fail = false): MemoryPort {
	return {
		recall: async () => ok({ chunks: [], steps: [] }),
		instructions: async () => ok(['Answer in British English.']),
		fileInstructions: async (query, paths) => {
			calls.push({ query, paths });
			if (fail) return err('store gone');
			const step: TraceStep = {
				kind: 'note',
				stage: 'retrieval',
				level: 'info',
				message: 'instruction file .cursor/rules/sql.mdc § sql applied: glob **/*.sql matches db/schema.sql',
			};
			return ok({ instructions: ['sql (.cursor/rules/sql.mdc): Parameterise every query.'], steps: [step] });
		},
	};
}

const messages = (steps: TraceStep[]) => steps.flatMap((s) => (s.kind === 'note' ? [s.message] : []));

describe('gatherEvidence: instruction files', () => {
	it('asks with the message and the evidence paths, and applies the sections after the chat-stated instructions', async () => {
		const calls: { query: string; paths: readonly string[] }[] = [];
		const out = await gatherEvidence(
			{ log: quiet, retrieve, memory: port(calls) },
			'How is the schema in db/schema.sql created?',
			decision(),
			DEFAULT_THRESHOLDS,
			false,
			() => {},
		);
		assert.deepEqual(calls, [{ query: 'How is the schema in db/schema.sql created?', paths: ['db/schema.sql'] }]);
		assert.deepEqual(out.instructions, [
			'Answer in British English.',
			'sql (.cursor/rules/sql.mdc): Parameterise every query.',
		]);
		const notes = messages(out.steps);
		assert.ok(
			notes.includes('instruction file .cursor/rules/sql.mdc § sql applied: glob **/*.sql matches db/schema.sql'),
			notes.join('\n'),
		);
		assert.ok(notes.includes('applied 2 standing instructions'), notes.join('\n'));
	});

	it('is not asked in evidence-only mode (no model reads instructions) nor in Restricted Mode', async () => {
		const calls: { query: string; paths: readonly string[] }[] = [];
		const evidenceOnly = await gatherEvidence(
			{ log: quiet, retrieve, memory: port(calls) },
			'q',
			decision(),
			DEFAULT_THRESHOLDS,
			false,
			() => {},
			false,
		);
		const restricted = await gatherEvidence(
			{ log: quiet, retrieve, memory: port(calls) },
			'q',
			decision(),
			DEFAULT_THRESHOLDS,
			true,
			() => {},
		);
		assert.deepEqual(calls, []);
		assert.deepEqual([evidenceOnly.instructions, restricted.instructions], [[], []]);
	});

	it('a failing port is a warning note; the evidence and the chat-stated instructions still arrive', async () => {
		const out = await gatherEvidence(
			{ log: quiet, retrieve, memory: port([], true) },
			'q',
			decision(),
			DEFAULT_THRESHOLDS,
			false,
			() => {},
		);
		assert.deepEqual(out.instructions, ['Answer in British English.']);
		assert.equal(out.evidence.length, 1);
		const warn = out.steps.find((s) => s.kind === 'note' && s.level === 'warn');
		assert.ok(
			warn && warn.kind === 'note' && warn.message === 'instruction files not read: store gone',
			JSON.stringify(out.steps),
		);
	});
});
