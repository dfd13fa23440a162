/**
 * The retrieval half of a turn: the decision's tiers are searched at once, and their evidence and
 * trace steps come back in the pipeline's order (workspace, then memories) whichever finishes first.
 */
import assert from 'node:assert/strict';
import { decideTurn } from '../../src/core/decide';
import { DEFAULT_THRESHOLDS } from '../../src/core/thresholds';
import type { GateResult } from '../../src/core/types';
import { gatherEvidence, type MemoryPort, type RetrieveFn } from '../../src/chat/turnEvidence';
import type { EvidenceItem } from '../../src/core/evidence';
import { err, ok } from '../../src/core/result';
import type { RetrievalReply } from '../../src/chat/workspaceMemory';
import { quietLogger as quiet } from '../fixtures/hostDoubles';

/** A promise and the function that settles it. */
function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void } {
	let resolve!: (v: T) => void;
	const promise = new Promise<T>((r) => (resolve = r));
	return { promise, resolve };
}

const wsChunk = {
	source: 'workspace' as const,
	path: 'src/a.ts',
	startLine: 1,
	endLine: 2,
	symbol: 'a',
	text: 'export const a = 1;',
};
const memory: EvidenceItem = {
	source: 'research',
	path: null,
	startLine: null,
	endLine: null,
	symbol: null,
	text: 'We chose PGlite for the embedded store.',
	citation: 'research memory',
};

/** A real decision, with the tiers under test. */
function decision(tiers: GateResult['tiers']): GateResult {
	const r = decideTurn({
		utterance: 'What did we decide about the database for the parser in src/a.ts?',
		history: [],
		context: { now: Date.now() },
	});
	return { ...r, retrieve: true, tiers };
}

describe('gatherEvidence', () => {
	it('starts memory recall before the workspace search has finished, and keeps workspace evidence first', async () => {
		const ws = deferred<RetrievalReply>();
		const events: string[] = [];
		const retrieve: RetrieveFn = () => {
			events.push('workspace started');
			return ws.promise;
		};
		const port: MemoryPort = {
			recall: () => {
				events.push('recall started');
				// The workspace search settles only after recall has begun: sequential code would deadlock here.
				setTimeout(() => ws.resolve({ status: 'evidence', chunks: [wsChunk], notes: [], steps: [] }), 5);
				return Promise.resolve(ok({ chunks: [memory], steps: [] }));
			},
			instructions: () => Promise.resolve(ok(['keep answers short'])),
		};
		const progress: string[] = [];
		const out = await gatherEvidence(
			{ log: quiet, retrieve, memory: port },
			'q',
			decision(['workspace', 'research']),
			DEFAULT_THRESHOLDS,
			false,
			(m) => progress.push(m),
		);
		assert.deepEqual(events, ['workspace started', 'recall started']);
		assert.deepEqual(
			out.evidence.map((e) => e.source),
			['workspace', 'research'],
		);
		assert.deepEqual(out.instructions, ['keep answers short']);
		assert.deepEqual(progress, ['Searching workspace and research memory…']);
		assert.ok(out.steps.some((s) => s.kind === 'note' && s.message === 'applied 1 standing instruction'));
	});

	for (const [how, failing] of [
		['returns err (a store failure)', () => Promise.resolve(err('store locked'))],
		['throws (a bug in the port)', () => Promise.reject(new Error('store locked'))],
	] as const)
		it(`a recall port that ${how} is a trace note; the workspace evidence still arrives`, async () => {
			const retrieve: RetrieveFn = () =>
				Promise.resolve({ status: 'evidence', chunks: [wsChunk], notes: [], steps: [] });
			const port: MemoryPort = { recall: failing, instructions: failing };
			const out = await gatherEvidence(
				{ log: quiet, retrieve, memory: port },
				'q',
				decision(['workspace', 'profile']),
				DEFAULT_THRESHOLDS,
				false,
				() => {},
			);
			assert.deepEqual(
				out.evidence.map((e) => e.path),
				['src/a.ts'],
			);
			const notes = out.steps.filter((s) => s.kind === 'note').map((s) => (s.kind === 'note' ? s.message : ''));
			assert.ok(notes.includes('memory recall failed: store locked'), notes.join(' | '));
			assert.ok(notes.includes('standing instructions not read: store locked'), notes.join(' | '));
		});

	it('Restricted Mode searches nothing and says nothing is searched', async () => {
		let called = 0;
		const retrieve: RetrieveFn = () => {
			called++;
			return Promise.resolve({ status: 'no_match', notes: [], steps: [] });
		};
		const progress: string[] = [];
		const out = await gatherEvidence(
			{ log: quiet, retrieve },
			'q',
			decision(['workspace']),
			DEFAULT_THRESHOLDS,
			true,
			(m) => progress.push(m),
		);
		assert.equal(called, 0);
		assert.deepEqual(progress, []);
		assert.equal(out.workspace, null);
	});
});
