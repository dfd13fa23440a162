/** SSE parsing across arbitrary read boundaries. */
import assert from 'node:assert/strict';
import { SseParser } from '../../../src/generation/sseParser';

const enc = new TextEncoder();

describe('generation: SSE parser', () => {
	it('yields the same events however the bytes are split (mid-line, mid-character, mid-CRLF)', () => {
		const stream = 'data: {"a":"café"}\r\n\r\n: keep-alive\n\nevent: x\ndata: line1\ndata: line2\n\ndata: [DONE]\n\n';
		const bytes = enc.encode(stream);
		for (let cut1 = 1; cut1 < bytes.length - 1; cut1 += 3) {
			const cut2 = Math.min(bytes.length - 1, cut1 + 5);
			const p = new SseParser();
			const events = [
				...p.push(bytes.subarray(0, cut1)),
				...p.push(bytes.subarray(cut1, cut2)),
				...p.push(bytes.subarray(cut2)),
				...p.end(),
			];
			assert.deepEqual(events, ['{"a":"café"}', 'line1\nline2', '[DONE]'], `cuts at ${cut1}/${cut2}`);
		}
	});

	it('flushes a last event that has no blank line after it', () => {
		const p = new SseParser();
		assert.deepEqual(p.push(enc.encode('data: x')), []);
		assert.deepEqual(p.end(), ['x']);
	});
});
