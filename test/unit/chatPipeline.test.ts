/**
 * The turn pipeline's hook points and Restricted Mode, with the real decision core, the real
 * OpenAI-compatible generator over HTTP against the stub server (127.0.0.1) and evidence-only mode.
 */
import assert from 'node:assert/strict';
import { HookRegistry } from '../../src/core/hooks';
import { err, ok } from '../../src/core/result';
import type { GateResult } from '../../src/core/types';
import { OpenAiGenerator } from '../../src/generation/openaiGenerator';
import type { RetrieveFn } from '../../src/chat/turnEvidence';
import type { PersistRequest } from '../../src/chat/turnPersistence';
import { runPipeline, type PipelinePorts, type PipelineTurn } from '../../src/chat/turnPipeline';
import type { RetrievalReply } from '../../src/chat/workspaceMemory';
import { startOpenAiStub, type OpenAiStub } from '../stubs/openaiStub.cjs';
import { quietLogger as quiet } from '../fixtures/hostDoubles';
import { pipelineTurn } from '../fixtures/pipelineTurn';

const sink = { progress() {}, start() {}, delta() {} };

const chunk = {
	source: 'workspace' as const,
	path: 'src/config.ts',
	startLine: 1,
	endLine: 3,
	symbol: 'parseConfig',
	text: 'export function parseConfig(text: string) {\n\treturn JSON.parse(text);\n}',
};

function turn(over: Partial<PipelineTurn> = {}): PipelineTurn {
	return pipelineTurn({ utterance: 'How does parseConfig in src/config.ts handle invalid JSON input?', ...over });
}

describe('chat pipeline: hooks, Restricted Mode, evidence-only', () => {
	let stub: OpenAiStub;
	const searched: string[] = [];
	const retrieve: RetrieveFn = (query: string, _r: GateResult): Promise<RetrievalReply> => {
		searched.push(query);
		return Promise.resolve({ status: 'evidence', chunks: [chunk], notes: [], steps: [] });
	};
	before(async () => {
		stub = await startOpenAiStub({ port: 0 });
	});
	after(() => stub.close());

	it('before_generation edits the system prompt sent; after_generation edits the reply; both land in the trace', async () => {
		const hooks = new HookRegistry();
		hooks.register('before_generation', 'house style', (p) => {
			p.system_prompt += '\nAlways answer in haiku.';
		});
		hooks.register('after_generation', 'sign-off', (p) => {
			p.response += ' — checked';
		});
		const out = await runPipeline(
			{ log: quiet, retrieve, hooks },
			turn({ generator: new OpenAiGenerator({ baseUrl: stub.url, model: 'stub-cite', apiKey: null }) }),
			sink,
		);
		assert.equal(out.kind, 'reply');
		if (out.kind !== 'reply') return;
		const body = stub.requests.at(-1)!.body as { messages: { role: string; content: string }[] };
		assert.match(body.messages[0].content, /Always answer in haiku\.$/);
		assert.match(out.markdown, /— checked$/);
		assert.ok(
			out.trace.steps.some(
				(s) =>
					s.kind === 'note' &&
					s.stage === 'prompt' &&
					/^prompt ~\d+ tokens: 1 evidence block \(budget 3000\)/.test(s.message),
			),
		);
		const hookSteps = out.trace.steps
			.filter((s) => s.kind === 'hook')
			.map((s) => (s.kind === 'hook' ? `${s.point}:${s.name}:${s.changed.join(',')}` : ''));
		assert.deepEqual(hookSteps, ['before_generation:house style:system_prompt', 'after_generation:sign-off:response']);
		assert.deepEqual(
			out.citations.map((c) => c.n),
			[1],
			'the stub cites [1] and [2]; only [1] exists',
		);
		assert.ok(out.trace.steps.some((s) => s.kind === 'note' && /removed citation markers.*\[2\]/.test(s.message)));
	});

	it('before_persist can drop a write; the rest reaches the store port', async () => {
		const hooks = new HookRegistry();
		hooks.register('before_persist', 'no research', (p) => {
			p.records = p.records.filter((r) => r.tier !== 'research');
		});
		const writes: PersistRequest[] = [];
		const ports: PipelinePorts = { log: quiet, hooks, persist: (r) => (writes.push(r), Promise.resolve(ok([]))) };
		const out = await runPipeline(
			ports,
			turn({ utterance: 'Actually, parseConfig returns null for invalid JSON' }),
			sink,
		);
		assert.ok(out.kind === 'reply');
		assert.deepEqual(out.result.write, ['research']);
		const steps = await out.persist();
		assert.ok(steps.some((s) => s.kind === 'hook' && s.point === 'before_persist' && s.changed.includes('records')));
		assert.equal(writes.length, 1);
		assert.deepEqual(writes[0].records, [], 'research dropped by the hook; only the conversation tier is written');
	});

	for (const [how, persist] of [
		['returns err', () => Promise.resolve(err('disk full'))],
		['throws (a bug)', () => Promise.reject(new Error('disk full'))],
	] as const)
		it(`a store port that ${how} while persisting becomes a trace note, never an exception`, async () => {
			const ports: PipelinePorts = { log: quiet, persist };
			const out = await runPipeline(ports, turn({ utterance: 'thanks' }), sink);
			assert.ok(out.kind === 'reply');
			const steps = await out.persist();
			assert.ok(steps.some((s) => s.kind === 'note' && s.level === 'error' && /disk full/.test(s.message)));
		});

	it('Restricted Mode: no retrieval and no writes, the model still answers over the conversation', async () => {
		searched.length = 0;
		const writes: PersistRequest[] = [];
		const out = await runPipeline(
			{ log: quiet, retrieve, persist: (r) => (writes.push(r), Promise.resolve(ok([]))) },
			turn({
				context: { now: Date.now(), restricted: true },
				generator: new OpenAiGenerator({ baseUrl: stub.url, model: 'stub-fast', apiKey: null }),
			}),
			sink,
		);
		assert.ok(out.kind === 'reply');
		assert.equal(searched.length, 0);
		assert.deepEqual(out.trace.decision.tiers, []);
		await out.persist();
		assert.equal(writes.length, 0);
		assert.equal(out.status, 'done');
	});

	it('evidence-only: quotes the evidence with [n] citations, plus the decision; a greeting gets the decision only', async () => {
		const out = await runPipeline({ log: quiet, retrieve, toUri: (p) => `file:///ws/${p}` }, turn(), sink);
		assert.ok(out.kind === 'reply');
		assert.match(out.markdown, /\[1\] src\/config\\\.ts:1\\-3/);
		assert.match(out.markdown, /\*\*Searched\*\* the workspace \(k=\d+\)/);
		assert.deepEqual(out.citations, [
			{ n: 1, label: 'src/config.ts:1-3 (parseConfig)', uri: 'file:///ws/src/config.ts', startLine: 1, endLine: 3 },
		]);
		const hello = await runPipeline({ log: quiet, retrieve }, turn({ utterance: 'hello' }), sink);
		assert.ok(hello.kind === 'reply');
		assert.match(hello.markdown, /No lookup needed/);
	});

	it('aborted before generation: the reply is kept as stopped, nothing streamed', async () => {
		const abort = new AbortController();
		abort.abort();
		const out = await runPipeline({ log: quiet, retrieve }, turn({ signal: abort.signal }), sink);
		assert.ok(out.kind === 'reply');
		assert.equal(out.status, 'stopped');
	});
});
