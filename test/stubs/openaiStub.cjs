'use strict';
/**
 * A stub OpenAI-compatible server for tests and the e2e: POST /v1/chat/completions (SSE when
 * `stream: true`), GET /v1/models. No dependencies, listens on 127.0.0.1 only, bounded (request
 * body ≤ 1 MB, last 200 requests kept) and stops itself after `idleMs` without a request.
 *
 * Behaviour by model name:
 *   stub-slow     ~40 tokens, one every `slowDelayMs` (150 ms) — a Stop midway is observable
 *   stub-fast     the same reply, no delay            stub-cite   a short reply citing [1] and [2]
 *   stub-length   stops with finish_reason "length"   stub-split  one JSON chunk split across writes
 *   stub-json     ignores stream: true, one JSON body stub-cutoff stream ends with no [DONE] / finish
 *   stub-429      429 + Retry-After: 7                stub-500    500
 *   stub-garbage  200 text/event-stream of non-JSON data lines
 *   stub-hang     never answers (until close(); tests a client's timeout)
 *   anything else 404 {"error": {"message": "model \"x\" not found, try pulling it first"}}
 * With `apiKey` set, a request without `Authorization: Bearer <apiKey>` gets 401.
 * `script` overrides per model: { [model]: { tokens?: string[], delayMs?: number, status?: number } }.
 *
 * Module: const { url, close, requests } = await startOpenAiStub({ port: 0 });
 * CLI:    node test/stubs/openaiStub.cjs --port 18123 [--api-key K] [--idle-ms 600000]  (prints the URL)
 */
const http = require('node:http');

const REPLY =
	'The retry helper waits with exponential backoff between attempts and gives up after the last one, rethrowing the final error [1]. ' +
	'Each delay doubles the previous one, starting from the base delay you pass in, so three attempts wait one, two and four units [1].';
const CITE_REPLY = 'It retries with backoff [1], and the config is parsed in parseConfig [2].';
const MAX_BODY = 1024 * 1024;
const MAX_RECORDS = 200;

/** Splits a reply into word tokens (spaces kept) so it streams like a model. */
function tokensOf(text) {
	return text.match(/\S+\s*/g) || [];
}

function chunk(id, model, delta, finish) {
	return `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
}

function sendJson(res, status, body, headers = {}) {
	res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
	res.end(JSON.stringify(body));
}

/**
 * Starts the stub. Resolves to { url, port, requests, close() }; `url` ends in /v1.
 * Each record in `requests`: { method, path, headers, body, closedEarly, completed }.
 */
function startOpenAiStub(options = {}) {
	const opts = { port: 0, apiKey: null, idleMs: 10 * 60 * 1000, slowDelayMs: 150, script: {}, ...options };
	const requests = [];
	const sockets = new Set();
	let idle = null;
	const server = http.createServer((req, res) => {
		armIdle();
		const record = {
			method: req.method,
			path: req.url,
			headers: req.headers,
			body: null,
			closedEarly: false,
			completed: false,
		};
		requests.push(record);
		if (requests.length > MAX_RECORDS) requests.shift();
		res.on('close', () => {
			if (!res.writableFinished) record.closedEarly = true;
		});
		res.on('finish', () => (record.completed = true));
		let size = 0;
		const parts = [];
		req.on('data', (b) => {
			size += b.length;
			if (size > MAX_BODY) {
				sendJson(res, 413, { error: { message: 'request body too large' } });
				req.destroy();
			} else parts.push(b);
		});
		req.on('end', () => {
			if (res.headersSent) return;
			const text = Buffer.concat(parts).toString('utf8');
			try {
				record.body = text ? JSON.parse(text) : null;
			} catch {
				record.body = text;
			}
			route(req, res, record);
		});
	});

	function route(req, res, record) {
		const path = (req.url || '').split('?')[0];
		if (opts.apiKey && req.headers.authorization !== `Bearer ${opts.apiKey}`) {
			return sendJson(res, 401, {
				error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' },
			});
		}
		if (req.method === 'GET' && path === '/v1/models') {
			const ids = [
				'stub-slow',
				'stub-fast',
				'stub-cite',
				'stub-length',
				'stub-split',
				'stub-json',
				'stub-cutoff',
				'stub-429',
				'stub-500',
				'stub-garbage',
				'stub-hang',
				...Object.keys(opts.script),
			];
			return sendJson(res, 200, { object: 'list', data: ids.map((id) => ({ id, object: 'model', owned_by: 'stub' })) });
		}
		if (req.method !== 'POST' || path !== '/v1/chat/completions')
			return sendJson(res, 404, { error: '404 page not found' });
		const body = record.body && typeof record.body === 'object' ? record.body : {};
		const model = typeof body.model === 'string' ? body.model : '';
		const scripted = opts.script[model];
		if (scripted && scripted.status)
			return sendJson(res, scripted.status, { error: { message: `scripted ${scripted.status}` } });
		if (scripted) return stream(res, model, scripted.tokens || tokensOf(REPLY), scripted.delayMs || 0, 'stop');
		switch (model) {
			case 'stub-slow':
				return stream(res, model, tokensOf(REPLY), opts.slowDelayMs, 'stop');
			case 'stub-fast':
				return body.stream === false ? whole(res, model, REPLY) : stream(res, model, tokensOf(REPLY), 0, 'stop');
			case 'stub-cite':
				return stream(res, model, tokensOf(CITE_REPLY), 0, 'stop');
			case 'stub-length':
				return stream(res, model, tokensOf(REPLY).slice(0, 5), 0, 'length');
			case 'stub-cutoff':
				return stream(res, model, tokensOf(REPLY).slice(0, 5), 0, null);
			case 'stub-json':
				return whole(res, model, REPLY);
			case 'stub-split':
				return split(res, model);
			case 'stub-429':
				return sendJson(
					res,
					429,
					{ error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' } },
					{ 'Retry-After': '7' },
				);
			case 'stub-500':
				return sendJson(res, 500, { error: { message: 'internal server error (stub)' } });
			case 'stub-hang':
				return undefined;
			case 'stub-garbage':
				res.writeHead(200, { 'Content-Type': 'text/event-stream' });
				return res.end('data: {"choices": [ {"delta": \n\ndata: <html>not json</html>\n\n');
			default:
				return sendJson(res, 404, {
					error: { message: `model "${model}" not found, try pulling it first`, type: 'not_found_error' },
				});
		}
	}

	function stream(res, model, tokens, delayMs, finish) {
		const id = `chatcmpl-stub-${requests.length}`;
		res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
		res.write(chunk(id, model, { role: 'assistant', content: '' }, null));
		let i = 0;
		const next = () => {
			if (res.destroyed || res.writableEnded) return;
			if (i < tokens.length) {
				res.write(chunk(id, model, { content: tokens[i++] }, null));
				return delayMs ? setTimeout(next, delayMs) : setImmediate(next);
			}
			if (finish) res.end(chunk(id, model, {}, finish) + 'data: [DONE]\n\n');
			else res.end();
		};
		next();
	}

	function whole(res, model, text) {
		sendJson(res, 200, {
			id: 'chatcmpl-stub',
			object: 'chat.completion',
			model,
			choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
		});
	}

	/** One event cut mid-JSON and mid-character ("é" is two UTF-8 bytes), CRLF line ends. */
	function split(res, model) {
		res.writeHead(200, { 'Content-Type': 'text/event-stream' });
		const bytes = Buffer.from(
			chunk('s', model, { content: 'café ' }, null).replace(/\n/g, '\r\n') +
				chunk('s', model, { content: 'au lait' }, 'stop') +
				'data: [DONE]\n\n',
		);
		const cut = bytes.indexOf(Buffer.from('é')) + 1;
		res.write(bytes.subarray(0, cut));
		setTimeout(() => {
			res.write(bytes.subarray(cut, cut + 7));
			setTimeout(() => res.end(bytes.subarray(cut + 7)), 20);
		}, 20);
	}

	function armIdle() {
		clearTimeout(idle);
		idle = setTimeout(() => close(), opts.idleMs);
		idle.unref();
	}

	function close() {
		clearTimeout(idle);
		for (const s of sockets) s.destroy();
		return new Promise((resolve) => server.close(() => resolve()));
	}

	server.on('connection', (s) => {
		sockets.add(s);
		s.on('close', () => sockets.delete(s));
	});
	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(opts.port, '127.0.0.1', () => {
			armIdle();
			const port = server.address().port;
			resolve({ url: `http://127.0.0.1:${port}/v1`, port, requests, close });
		});
	});
}

module.exports = { startOpenAiStub };

if (require.main === module) {
	const arg = (name) => {
		const i = process.argv.indexOf(name);
		return i > 0 ? process.argv[i + 1] : undefined;
	};
	startOpenAiStub({
		port: Number(arg('--port') || 0),
		apiKey: arg('--api-key') || null,
		idleMs: Number(arg('--idle-ms') || 10 * 60 * 1000),
	}).then(
		(stub) => {
			console.log(stub.url);
			const stop = () => stub.close().then(() => process.exit(0));
			process.on('SIGTERM', stop);
			process.on('SIGINT', stop);
		},
		(e) => {
			console.error(`openaiStub: ${e.message}`);
			process.exit(1);
		},
	);
}
