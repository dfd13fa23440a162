/**
 * bench:chat's result hash (bench/chatRetrieval/resultDigest.ts) is how a speed change shows it
 * returned the same results: timings must not move it, a changed hit, score or trace line must.
 */
import assert from 'node:assert/strict';
import { resultDigest } from '../../bench/chatRetrieval/resultDigest';
import type { WorkspaceRetrieval } from '../../src/retrieval/workspaceRetrieval';

function retrieval(ms: number, chunk = 'a#0', fused = 0.5, note = 'symbol arm: none'): WorkspaceRetrieval {
	const hit = { chunk_id: chunk, fused, rerank: 0.1 };
	return {
		ranked: [hit],
		hits: [hit],
		evidence: { selected: [{ chunk_id: chunk, ms }] },
		steps: [
			{ kind: 'note', message: note },
			{ kind: 'retrieval', ms, hits: [{ chunk_id: chunk }] },
		],
	} as unknown as WorkspaceRetrieval;
}

describe('bench:chat result digest', () => {
	it('ignores timings', () => {
		assert.equal(resultDigest(retrieval(3)), resultDigest(retrieval(41)));
	});

	it('changes with a hit, a score or a trace line', () => {
		const base = resultDigest(retrieval(3));
		assert.notEqual(resultDigest(retrieval(3, 'b#0')), base);
		assert.notEqual(resultDigest(retrieval(3, 'a#0', 0.25)), base);
		assert.notEqual(resultDigest(retrieval(3, 'a#0', 0.5, 'symbol arm: one')), base);
	});
});
