// The chat panel's pure logic, in Node: citation markers, syntax highlighting through the
// Markdown pipeline, the trace's one-line summary and tier lines, the reply helpers, the header's
// history labels and the stream-render throttle. The DOM parts (toolbars, links, streaming
// nodes) run in the real workbench: test/e2e/checks/10-panel.cjs.
import * as assert from 'node:assert/strict';
import type { DecisionTrace } from '../../src/core/protocol';
import { splitCitationMarkers } from '../../webview/citations';
import { fenceLanguage } from '../../webview/codeBlocks';
import { historyOptionLabel } from '../../webview/header';
import { highlightCode, highlightLanguage, MAX_HIGHLIGHT_CHARS } from '../../webview/highlight';
import { markdownToHtml } from '../../webview/markdown';
import { retryNote, retryTarget } from '../../webview/replyView';
import { chunkLocations, evidenceLines, tierLines, traceSummary } from '../../webview/traceView';
import { Throttle } from '../../webview/transcript';
import { sampleTrace } from './protocol.test';

/** A trace without a follow-up, with `retrieve` and the steps given. */
function trace(patch: Partial<DecisionTrace['decision']>, steps: DecisionTrace['steps']): DecisionTrace {
	const t = sampleTrace();
	return { ...t, steps, decision: { ...t.decision, ...patch } };
}

describe('webview citations', () => {
	const known = new Set([1, 2, 3]);

	it('turns [n] markers with a known citation into parts, keeping the text around them', () => {
		assert.deepEqual(splitCitationMarkers('See [1] and [2].', known), [
			'See ',
			{ n: 1, text: '[1]' },
			' and ',
			{ n: 2, text: '[2]' },
			'.',
		]);
	});

	it('splits a multi-number marker into one link per number', () => {
		assert.deepEqual(splitCitationMarkers('both [2, 3]', known), [
			'both [',
			{ n: 2, text: '2' },
			', ',
			{ n: 3, text: '3' },
			']',
		]);
	});

	it('leaves unknown numbers, index expressions and a marker with any unknown number as text', () => {
		for (const text of ['see [7]', 'arr[1] and f()[2]', 'x.y[3]', 'mixed [1, 9]', 'no markers']) {
			assert.deepEqual(splitCitationMarkers(text, known), [text], text);
		}
	});
});

describe('webview code highlighting', () => {
	it('highlights a known fence language with hljs classes and escapes the code', () => {
		const html = markdownToHtml('```ts\nconst a: string = "<b>";\n```');
		assert.match(html, /<pre><code class="language-ts"><span class="hljs-keyword">const<\/span>/);
		assert.ok(html.includes('&lt;b&gt;') && !html.includes('<b>'), html);
	});

	it('maps extra fence names and leaves unknown ones plain', () => {
		assert.equal(highlightLanguage('tsx'), 'tsx');
		assert.equal(highlightLanguage('Python {.numberLines}'), 'python');
		assert.equal(highlightLanguage('cobol'), null);
		assert.equal(highlightCode('MOVE A TO B.', 'cobol'), '');
		assert.match(
			markdownToHtml('```cobol\nMOVE <A>\n```'),
			/<pre><code class="language-cobol">MOVE &lt;A&gt;\n<\/code><\/pre>/,
		);
	});

	it('does not highlight very long code (kept plain, still escaped)', () => {
		const long = 'let x = 1;\n'.repeat(Math.ceil(MAX_HIGHLIGHT_CHARS / 11) + 1);
		assert.equal(highlightCode(long, 'js'), '');
		assert.notEqual(highlightCode('let x = 1;', 'js'), '');
	});

	it("reads the fence language from markdown-it's class", () => {
		assert.equal(fenceLanguage('language-ts'), 'ts');
		assert.equal(fenceLanguage('hljs language-python extra'), 'python');
		assert.equal(fenceLanguage(''), null);
	});
});

describe('webview trace summary line', () => {
	it('says what was retrieved, from where, how fast, and the follow-up score', () => {
		// sampleTrace: one workspace hit in 3.5 ms, the follow-up gate fired with score 0.1.
		assert.equal(traceSummary(sampleTrace()), 'retrieved 1 from workspace in 4 ms · follow-up 0.10');
	});

	it('says "no lookup" and the trigger when nothing was looked up', () => {
		assert.equal(traceSummary(trace({ retrieve: false, tiers: [], trigger: 'greeting' }, [])), 'no lookup · greeting');
	});

	it('keeps "search <tiers>" when the search found nothing, and says when a reply was stopped', () => {
		const t = trace({ tiers: ['workspace'] }, [
			{ kind: 'generation', generator: 'openai', status: 'cancelled', ms: 5 },
		]);
		assert.equal(traceSummary(t), 'search workspace · nothing retrieved · question · stopped');
	});

	it('lists each tier as searched or skipped, with the reason', () => {
		const lines = tierLines(sampleTrace());
		assert.equal(lines[0], 'workspace searched — k=4, floor 0.45, hybrid, 1 hit in 4 ms');
		assert.equal(lines[1], 'research chosen, not searched — research tier empty');
		assert.equal(lines[2], 'profile skipped — not chosen for workspace_question (route workspace_question)');
		assert.match(
			tierLines(trace({ retrieve: false, tiers: [], trigger: 'ack', path: 'direct' }, []))[0],
			/^workspace skipped — no lookup this turn \(ack, direct\)$/,
		);
	});

	it('names kept and dropped evidence by location, with the drop reason', () => {
		const t = sampleTrace();
		const evidence = t.steps.find((s) => s.kind === 'evidence');
		assert.ok(evidence?.kind === 'evidence');
		assert.deepEqual(evidenceLines(evidence, chunkLocations(t.steps)), [
			{ kept: true, text: 'kept src/a.ts:1-9' },
			{ kept: false, text: 'dropped c2 — below floor' },
		]);
	});
});

describe('webview reply helpers', () => {
	it('retries the original user turn, also from a retry', () => {
		assert.equal(retryTarget({ turnId: 't1' }), 't1');
		assert.equal(retryTarget({ turnId: 't9', retryOf: 't1' }), 't1');
	});

	it('labels retries with the retrieval override', () => {
		assert.equal(retryNote({}), '');
		assert.equal(retryNote({ retryOf: 't1', retrieval: 'force' }), 'retry · retrieval forced');
		assert.equal(retryNote({ retryOf: 't1', retrieval: 'auto' }), 'retry');
		assert.equal(retryNote({ retrieval: 'skip' }), 'retrieval skipped');
	});

	it('labels history entries with the time today and the date before', () => {
		const now = new Date(2026, 10, 30, 15, 0).getTime();
		assert.equal(
			historyOptionLabel({ id: 'a', title: 'Fix retry', at: new Date(2026, 10, 30, 9, 5).getTime(), turns: 2 }, now),
			'Fix retry · 09:05',
		);
		assert.equal(
			historyOptionLabel({ id: 'b', title: '  ', at: new Date(2026, 10, 28, 9, 5).getTime(), turns: 0 }, now),
			'New conversation · 28 Nov',
		);
		assert.equal(
			historyOptionLabel({ id: 'c', title: 'x'.repeat(80), at: now, turns: 1 }, now).length,
			48 + ' · 15:00'.length,
		);
	});
});

describe('webview stream rendering throttle', () => {
	it('flushes once per interval however many deltas arrive, and again after', () => {
		const timers: (() => void)[] = [];
		let flushes = 0;
		const throttle = new Throttle(
			() => flushes++,
			50,
			(fn) => timers.push(fn),
		);
		for (let i = 0; i < 100; i++) throttle.request();
		assert.equal(timers.length, 1);
		assert.equal(flushes, 0);
		timers.shift()?.();
		assert.equal(flushes, 1);
		throttle.request();
		assert.equal(timers.length, 1, 'a request after a flush schedules a new one');
	});
});
