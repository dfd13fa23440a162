/** Evidence-only replies (citations, fences that chunk text cannot close) and the trace's hit lines. */
import assert from 'node:assert/strict';
import type { TraceHit } from '../../src/core/trace';
import { citation, retrievalBody } from '../../src/extension/replyText';
import { hitLine } from '../../webview/traceView';

describe('extension: evidence-only reply text', () => {
	it('cites path:start-end, escaped', () => {
		assert.equal(citation({ path: 'src/a.ts', startLine: 1, endLine: 3 }), 'src/a\\.ts:1\\-3');
		assert.equal(citation({ path: 'b.md', startLine: 4, endLine: 4 }), 'b\\.md:4');
	});

	it('quotes chunks in a fence longer than any backtick run inside them', () => {
		const text = 'const s = `a`;\n```\n<img src=x onerror=alert(1)>\n````';
		const md = retrievalBody({ status: 'evidence', notes: [], steps: [], chunks: [{ tier: 'workspace', path: 'x.ts', startLine: 1, endLine: 4, symbol: null, text }] });
		assert.match(md, /\n`````\nconst s = `a`;[\s\S]*````\n`````$/);
	});

	it('is honest when nothing is indexed or nothing matched', () => {
		assert.match(retrievalBody({ status: 'not_indexed', steps: [] }), /not indexed yet.*Index Workspace/);
		assert.match(retrievalBody({ status: 'no_match', notes: ['lexical-only: no embedder'], steps: [] }), /Nothing in this workspace's index matched[\s\S]*Lexical-only/);
	});
});

describe('webview: retrieved hits in the trace', () => {
	it('shows path, lines, arm ranks and scores, and the fused score', () => {
		const hit: TraceHit = { id: 'src/a.ts', chunk_id: 'src/a.ts#0', path: 'src/a.ts', start_line: 1, end_line: 3, symbol: 'parseConfig', score: 0.0164, fused: 0.0164, arms: { fts: { rank: 1, score: 2.314 }, vector: null }, rerank: null };
		assert.equal(hitLine(hit), 'src/a.ts:1-3 parseConfig · fts #1 (2.31) · vector — · fused 0.0164');
	});
});
