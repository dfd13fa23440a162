// The sanitising pipeline's first layer (markdown-it, html: false) runs here in Node; the
// DOMPurify layer needs a real DOM and is exercised in the real workbench by test/e2e/e2e.cjs
// ("HTML in a reply renders as text").
import * as assert from 'node:assert/strict';
import { ALLOWED_TAGS, markdownToHtml, SANITIZE_CONFIG } from '../../webview/markdown';
import { formatMicros, formatValue, lookupPlan, stepInputsTitle, traceHeadline } from '../../webview/traceView';
import { everyStepKind, sampleTrace } from './protocol.test';

describe('webview Markdown rendering', () => {
	it('escapes raw HTML instead of passing it through', () => {
		const html = markdownToHtml('What does <img src=x onerror=alert(1)> do? <script>alert(2)</script>');
		assert.ok(!/<img|<script/i.test(html), html);
		assert.ok(html.includes('&lt;img src=x onerror=alert(1)&gt;'), html);
	});

	it('refuses javascript:, vbscript: and data: links', () => {
		for (const href of [
			'javascript:alert(1)',
			'JAVASCRIPT:alert(1)',
			'vbscript:msgbox(1)',
			'data:text/html;base64,PHNjcmlwdD4=',
		]) {
			const html = markdownToHtml(`[click](${href})`);
			assert.ok(!/href=/i.test(html), `${href} → ${html}`);
		}
		assert.match(markdownToHtml('[docs](https://example.com/x)'), /href="https:\/\/example.com\/x"/);
	});

	it('renders ordinary Markdown', () => {
		const html = markdownToHtml('**Would search** workspace\n\n- `k=4`\n\n```ts\nconst a = 1;\n```');
		assert.match(html, /<strong>Would search<\/strong>/);
		assert.match(html, /<code>k=4<\/code>/);
		assert.match(html, /<pre><code class="language-ts">/);
	});

	it('sanitiser allow-list has no active or embedding elements and only web/mail URLs', () => {
		for (const tag of [
			'script',
			'style',
			'img',
			'iframe',
			'object',
			'embed',
			'svg',
			'math',
			'form',
			'input',
			'link',
			'meta',
		]) {
			assert.ok(!ALLOWED_TAGS.includes(tag), tag);
		}
		const attrs = SANITIZE_CONFIG.ALLOWED_ATTR ?? [];
		assert.ok(!attrs.some((a) => a.startsWith('on') || a === 'style' || a === 'src'), attrs.join(','));
		const uri = SANITIZE_CONFIG.ALLOWED_URI_REGEXP;
		assert.ok(uri instanceof RegExp);
		assert.ok(uri.test('https://x') && uri.test('mailto:a@b'));
		assert.ok(!uri.test('javascript:alert(1)') && !uri.test('data:text/html,x') && !uri.test('file:///etc/passwd'));
	});
});

describe('webview trace formatting', () => {
	it('summarises a trace in its headline and lookup plan', () => {
		const trace = sampleTrace();
		assert.equal(traceHeadline(trace), 'question · rag · search workspace + research · 42 µs');
		assert.equal(lookupPlan(trace.decision), 'workspace k=4 floor 0.45 · research k=4 floor 0.65');
		assert.equal(
			lookupPlan({ ...trace.decision, retrieve: false, tiers: [] }),
			'none — answered from the conversation',
		);
	});

	it("shows a gate's inputs as its hover title", () => {
		const [gate, hook] = everyStepKind();
		assert.deepEqual(stepInputsTitle(gate), { title: 'followup inputs — words: 3, cues: ["it"]' });
		assert.deepEqual(stepInputsTitle(hook), {});
	});

	it('formats values and durations compactly', () => {
		assert.equal(formatValue(0.7234), '0.72');
		assert.equal(formatValue({ a: 'x'.repeat(100) }).length, 60);
		assert.equal(formatMicros(3.4), '3 µs');
		assert.equal(formatMicros(14097.9), '14.1 ms');
	});
});
