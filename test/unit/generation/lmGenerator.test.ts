/** The LM API generator against a fake port: messages, streaming, cancellation, error mapping. */
import assert from 'node:assert/strict';
import { GenerationError, type AssembledPrompt, type GenerationRequest } from '../../../src/generation/generator';
import { LM_JUSTIFICATION, LmGenerator, toLmMessages } from '../../../src/generation/lmGenerator';
import { FakeLmPort, GPT, lmApiError } from './fakeLmPort';

const PROMPT: AssembledPrompt = {
	messages: [
		{ role: 'system', content: 'RULES' },
		{ role: 'user', content: 'earlier question' },
		{ role: 'assistant', content: 'earlier answer' },
		{ role: 'user', content: 'evidence + question' },
	],
	evidence: [],
	tokens: 10,
	dropped: [],
};

function request(over: Partial<GenerationRequest> = {}): GenerationRequest & { deltas: string[] } {
	const deltas: string[] = [];
	return { prompt: PROMPT, signal: new AbortController().signal, onDelta: (d) => deltas.push(d), deltas, ...over };
}

async function failure(gen: LmGenerator): Promise<GenerationError> {
	const e = await gen.generate(request()).then(
		() => null,
		(x: unknown) => x,
	);
	assert.ok(e instanceof GenerationError, `expected a GenerationError, got ${String(e)}`);
	return e;
}

describe('generation: LM API generator', () => {
	it('sends the system prompt as the first user message, then the conversation in order', () => {
		assert.deepEqual(toLmMessages(PROMPT.messages), [
			{ role: 'user', content: 'RULES' },
			{ role: 'user', content: 'earlier question' },
			{ role: 'assistant', content: 'earlier answer' },
			{ role: 'user', content: 'evidence + question' },
		]);
	});

	it('streams fragments in order and names the model', async () => {
		const port = new FakeLmPort();
		const gen = new LmGenerator(port);
		const req = request();
		const result = await gen.generate(req);
		assert.deepEqual(req.deltas, ['Retries ', 'three ', 'times ', '[1].']);
		assert.equal(result.text, 'Retries three times [1].');
		assert.equal(result.finish, 'stop');
		assert.equal(result.model, 'GPT-4o');
		assert.equal(gen.info.label, 'VS Code language model · GPT-4o');
		assert.equal(port.sent[0].justification, LM_JUSTIFICATION);
		assert.equal(port.sent[0].messages[0].content, 'RULES');
	});

	it('stops midway when aborted: partial text, finish cancelled, the port sees the abort', async () => {
		const port = new FakeLmPort();
		port.delayMs = 20;
		const ac = new AbortController();
		const req = request({ signal: ac.signal });
		const deltas: string[] = [];
		req.onDelta = (d) => {
			deltas.push(d);
			if (deltas.length === 2) ac.abort();
		};
		const result = await new LmGenerator(port).generate(req);
		assert.equal(result.finish, 'cancelled');
		assert.equal(result.text, 'Retries three ');
		assert.ok(port.sawAbort);
	});

	it('maps NoPermissions → no_consent, NotFound → model_not_found, Blocked → rate_limited, others → unavailable', async () => {
		const cases: [string, string, boolean, RegExp][] = [
			['NoPermissions', 'no_consent', false, /access prompt/],
			['NotFound', 'model_not_found', false, /no longer available/],
			['Blocked', 'rate_limited', true, /quota or rate limit/],
			['Unknown', 'unavailable', true, /failed to answer/],
		];
		for (const [code, expected, retryable, message] of cases) {
			const port = new FakeLmPort();
			port.error = lmApiError(code, `lm says ${code}`);
			const e = await failure(new LmGenerator(port));
			assert.equal(e.code, expected, code);
			assert.equal(e.retryable, retryable, code);
			assert.match(e.message, message);
			assert.match(e.message, new RegExp(`lm says ${code}`));
		}
	});

	it('maps an error thrown mid-stream too', async () => {
		const port = new FakeLmPort();
		port.error = lmApiError('Blocked', 'quota');
		port.failAfter = 2;
		assert.equal((await failure(new LmGenerator(port))).code, 'rate_limited');
	});

	it('no models, or no LM API at all → model_not_found saying how to get one', async () => {
		const none = await failure(new LmGenerator(new FakeLmPort([]), { vendor: 'copilot' }));
		assert.equal(none.code, 'model_not_found');
		assert.match(
			none.message,
			/No VS Code language model matches copilot — install and sign in to a chat model provider/,
		);
		const noApi = await failure(new LmGenerator(null));
		assert.equal(noApi.code, 'model_not_found');
		assert.match(noApi.message, /Language Model API is not available here/);
	});

	it('keeps the chosen model while the editor still offers it', async () => {
		const other = { ...GPT, id: 'other', name: 'Other' };
		const port = new FakeLmPort([other, GPT]);
		const gen = new LmGenerator(port, {}, GPT);
		await gen.generate(request());
		assert.equal(port.sent[0].model.id, GPT.id);
		port.models = [other];
		await gen.generate(request());
		assert.equal(port.sent[1].model.id, 'other', 'falls back to what is offered now');
	});
});
