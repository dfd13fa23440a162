/** HTTP and network failures → GenerationError codes (the cases the stub does not serve). */
import assert from 'node:assert/strict';
import { httpError, networkError, serverMessage } from '../../../src/generation/openaiErrors';

const URL = 'http://127.0.0.1:11434/v1';

describe('generation: OpenAI-compatible error classification', () => {
	it('reads the server message from the usual JSON shapes, or strips an HTML page', () => {
		assert.equal(serverMessage('{"error":{"message":"bad key"}}'), 'bad key');
		assert.equal(serverMessage('{"error":"model not loaded"}'), 'model not loaded');
		assert.equal(serverMessage('{"detail":"Not Found"}'), 'Not Found');
		assert.equal(serverMessage('<html><body><h1>502 Bad Gateway</h1></body></html>'), '502 Bad Gateway');
		assert.equal(serverMessage('x'.repeat(500)).length, 201);
	});

	it('classifies by status, and by a "model not found" body on other statuses', () => {
		assert.equal(httpError(403, '', null, URL, 'm').code, 'unauthorized');
		assert.equal(
			httpError(400, '{"error":{"message":"model \\"m\\" not found, try pulling it first"}}', null, URL, 'm').code,
			'model_not_found',
		);
		assert.equal(httpError(503, '', null, URL, 'm').retryable, true);
		const other = httpError(400, '{"error":{"message":"context too long"}}', null, URL, 'm');
		assert.deepEqual([other.code, other.retryable], ['unavailable', false]);
		assert.match(other.message, /HTTP 400.*context too long/);
		assert.match(
			httpError(404, '404 page not found', null, URL, 'm').message,
			/Check the base URL \(OpenAI-compatible servers usually end in \/v1\)/,
		);
		assert.match(httpError(429, '', 'Wed, 21 Oct 2026 07:28:00 GMT', URL, 'm').message, /Retry after Wed, 21 Oct/);
		assert.match(httpError(429, '', null, URL, 'm').message, /Wait a moment and retry/);
	});

	it("classifies network failures by the socket error under fetch's TypeError", () => {
		const wrap = (code: string) =>
			Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error(code), { code }) });
		assert.equal(
			networkError(wrap('ECONNREFUSED'), URL).message,
			`Cannot reach the model server at ${URL} — is it running? (ECONNREFUSED)`,
		);
		assert.match(networkError(wrap('ENOTFOUND'), URL).message, /Cannot resolve the model server's host/);
		assert.equal(networkError(wrap('ECONNRESET'), URL).code, 'offline');
		assert.equal(networkError(new TypeError('Failed to parse URL from x'), 'x').code, 'unavailable');
	});
});
