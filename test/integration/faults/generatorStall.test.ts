/**
 * A generator that stalls, through the shared turn pipeline and the panel's ChatController: the
 * turn's silence budget (src/chat/generationBudget.ts, shortened here) ends the wait with a
 * retryable error whose message says so, the generation step in the trace carries it, the user's
 * message is kept for Retry, and the stalled request is aborted. A model that keeps streaming
 * slowly is not cut: the budget is on silence, not on the whole reply. The OpenAI-compatible
 * generator runs over real HTTP against the stub server (its own timeout set longer, so the
 * pipeline's budget is what ends the wait); the LM API, which has no timeout of its own, through
 * the FakeLmPort (a hosted model cannot run here). No store: the stages before generation are idle.
 */
import assert from 'node:assert/strict';
import type { HostToWebviewMessage } from '../../../src/core/protocol';
import { DEFAULT_THRESHOLDS } from '../../../src/core/thresholds';
import { ChatController } from '../../../src/chat/chatController';
import { runPipeline, type PipelineTurn } from '../../../src/chat/turnPipeline';
import { pipelineTurn } from '../../fixtures/pipelineTurn';
import type { Generator } from '../../../src/generation/generator';
import { LmGenerator } from '../../../src/generation/lmGenerator';
import { OpenAiGenerator } from '../../../src/generation/openaiGenerator';
import { startOpenAiStub, type OpenAiStub } from '../../stubs/openaiStub.cjs';
import { quietLogger as quiet } from '../../fixtures/hostDoubles';
import { FakeLmPort } from '../../unit/generation/fakeLmPort';

/** The budget under test: short, so a stall is seen in well under a second. */
const STALL_MS = 400;
const QUESTION = 'How does the retry helper back off between attempts?';

describe('faults: a generator that stalls (the turn pipeline ends the wait)', function () {
	this.timeout(30_000);
	let stub: OpenAiStub;
	before(async () => {
		// stub-drip: a slow model that keeps streaming, one token every 60 ms (~1.5 s for the reply).
		stub = await startOpenAiStub({
			port: 0,
			script: { 'stub-drip': { tokens: Array.from({ length: 25 }, (_, i) => `word${i} `), delayMs: 60 } },
		});
	});
	after(() => stub.close());
	const openai = (model: string) => new OpenAiGenerator({ baseUrl: stub.url, model, apiKey: null, timeoutMs: 60_000 });
	const turn = (generator: Generator): PipelineTurn =>
		pipelineTurn({ turnId: 't-stall', utterance: QUESTION, generator, conversationId: 'c-stall' });

	it('an endpoint that accepts the request and never answers: a retryable chat/error, the message kept, the request closed; Retry answers', async () => {
		let generator: Generator = openai('stub-hang');
		const posted: HostToWebviewMessage[] = [];
		const controller = new ChatController({
			log: quiet,
			thresholds: () => DEFAULT_THRESHOLDS,
			isRestricted: () => false,
			generator: () => Promise.resolve(generator),
			generationStallMs: STALL_MS,
		});
		controller.attach((type, params) => void posted.push({ type, params } as HostToWebviewMessage));
		const t0 = performance.now();
		await controller.send('s1', QUESTION);
		const waited = performance.now() - t0;
		const error = posted.find((m) => m.type === 'chat/error');
		assert.ok(error && error.type === 'chat/error' && error.params.retryable, JSON.stringify(posted.at(-1)));
		assert.match(error.params.message, /sent nothing for \d+ s, so the turn stopped waiting\. Your message is kept/);
		assert.ok(waited < STALL_MS + 2_000, `the wait ended at the budget (${waited.toFixed(0)} ms)`);
		assert.ok(
			controller.session.entries.some((e) => e.kind === 'user' && e.turnId === 's1'),
			'the user message is kept',
		);
		assert.deepEqual(controller.inflightTurns, []);
		for (let i = 0; i < 50 && !stub.requests.at(-1)!.closedEarly; i++) await new Promise((r) => setTimeout(r, 20));
		assert.ok(stub.requests.at(-1)!.closedEarly, 'the stalled HTTP request was aborted');

		generator = openai('stub-fast');
		await controller.retry('s1', 's1-r', 'auto');
		const reply = posted.filter((m) => m.type === 'chat/reply').at(-1);
		assert.ok(
			reply && reply.type === 'chat/reply' && reply.params.status === 'done' && reply.params.retryOf === 's1',
			JSON.stringify(posted.at(-1)),
		);
	});

	it('an LM API stream that yields once and goes silent (ignoring the abort): the error is in the trace, the late text never reaches the panel', async () => {
		const port = new FakeLmPort();
		port.fragments = ['The retry ', 'helper never finishes.'];
		port.delayMs = 1_500; // the second fragment comes long after the budget, whatever the signal says
		// The fake waits out its delay before looking at the signal: a generator that does not honour Stop promptly.
		const deltas: string[] = [];
		const out = await runPipeline({ log: quiet, generationStallMs: STALL_MS }, turn(new LmGenerator(port)), {
			progress() {},
			start() {},
			delta: (t) => void deltas.push(t),
		});
		assert.equal(out.kind, 'error', JSON.stringify(out).slice(0, 300));
		if (out.kind !== 'error') return;
		assert.equal(out.retryable, true);
		const gen = out.trace?.steps.find((s) => s.kind === 'generation');
		assert.ok(
			gen &&
				gen.kind === 'generation' &&
				gen.status === 'error' &&
				/^unavailable: .* sent nothing for/.test(gen.error ?? ''),
			JSON.stringify(gen),
		);
		await new Promise((r) => setTimeout(r, 1_700)); // past the fake's delay
		assert.ok(
			deltas.length <= 1 && !deltas.join('').includes('never finishes'),
			`late fragments dropped: ${JSON.stringify(deltas)}`,
		);
		assert.ok(port.sawAbort, 'the generator was told to stop');
	});

	it('a slow model that keeps streaming is not cut: the budget counts silence, not the whole reply', async () => {
		const t0 = performance.now();
		const out = await runPipeline({ log: quiet, generationStallMs: STALL_MS }, turn(openai('stub-drip')), {
			progress() {},
			start() {},
			delta() {},
		});
		const took = performance.now() - t0;
		assert.equal(out.kind, 'reply', JSON.stringify(out).slice(0, 300));
		if (out.kind !== 'reply') return;
		assert.equal(out.status, 'done');
		assert.ok(took > STALL_MS * 2, `the reply took longer than the budget (${took.toFixed(0)} ms) and still completed`);
		assert.match(out.markdown, /word24/);
	});
});
