/** Untrusted text in replies (escaped locations, fences chunk text cannot close), the unsearched-workspace text, and the trace's hit lines. */
import assert from 'node:assert/strict';
import type { TraceHit } from '../../src/core/trace';
import { retrievalBody, unsearchedWorkspace } from '../../src/chat/replyText';
import { escapeMarkdown, fenceFor } from '../../src/generation/markdownText';
import { hitLine } from '../../webview/traceView';

describe('reply text: untrusted text stays literal', () => {
	it('escapes a path:start-end location', () => {
		assert.equal(escapeMarkdown('src/a.ts:1-3'), 'src/a\\.ts:1\\-3');
		assert.equal(escapeMarkdown('b.md:4'), 'b\\.md:4');
	});

	it('fences chunk text with a fence longer than any backtick run inside it', () => {
		assert.equal(fenceFor('const s = `a`;\n```\n<img src=x onerror=alert(1)>\n````'), '`````');
		assert.equal(fenceFor('no backticks'), '```');
	});

	it('says why the workspace was not searched, and only then', () => {
		assert.match(retrievalBody({ status: 'not_indexed', steps: [] }), /not indexed yet.*Index Workspace/);
		assert.match(
			retrievalBody({ status: 'error', message: 'disk *full*', steps: [] }),
			/Searching the workspace failed:\*\* disk \\\*full\\\*\./,
		);
		assert.equal(unsearchedWorkspace({ status: 'no_match', notes: [], steps: [] }), null);
		assert.equal(unsearchedWorkspace(null), null);
	});
});

describe('webview: retrieved hits in the trace', () => {
	it('shows path, lines, arm ranks and scores, and the fused score', () => {
		const hit: TraceHit = {
			id: 'src/a.ts',
			chunk_id: 'src/a.ts#0',
			path: 'src/a.ts',
			start_line: 1,
			end_line: 3,
			symbol: 'parseConfig',
			score: 0.0164,
			fused: 0.0164,
			arms: { fts: { rank: 1, score: 2.314 }, vector: null },
			rerank: null,
		};
		assert.equal(hitLine(hit), 'src/a.ts:1-3 parseConfig · fts #1 (2.31) · vector — · fused 0.0164');
	});
});
