import * as assert from 'node:assert/strict';
import {
	HOST_TO_WEBVIEW_TYPES,
	isDecisionTrace,
	isHostToWebviewMessage,
	isTraceStep,
	isWebviewToHostMessage,
	Messenger,
	WEBVIEW_TO_HOST_TYPES,
	type HostToWebview,
	type MessageTransport,
	type WebviewToHost,
} from '../../src/core/protocol';
import type { DecisionTrace, TraceStep } from '../../src/core/trace';

/** One step of every kind, as the later pipeline stages will record them. */
export function everyStepKind(): TraceStep[] {
	return [
		{
			kind: 'gate',
			gate: 'followup',
			inputs: { words: 3, cues: ['it'] },
			value: 0.72,
			threshold: 0.5,
			fired: true,
			effect: 'follow-up',
			us: 4,
		},
		{ kind: 'hook', point: 'policy_override', name: 'exp', status: 'error', error: 'boom', changed: [], us: 1 },
		{
			kind: 'retrieval',
			tier: 'workspace',
			query: 'q',
			searched_query: 'q',
			arm_mode: 'hybrid',
			k: 4,
			floor: 0.45,
			hits: [
				{
					id: 'src/a.ts',
					chunk_id: 'c1',
					path: 'src/a.ts',
					start_line: 1,
					end_line: 9,
					symbol: null,
					score: 0.8,
					fused: 0.03,
					arms: { fts: { rank: 1, score: 2.5 }, vector: null },
					rerank: { score: 0.9, status: 'model' },
				},
			],
			ms: 3.5,
		},
		{ kind: 'rerank', status: 'passthrough', reason: 'no model', pairs: 0, ms: 0 },
		{
			kind: 'evidence',
			selected: ['c1'],
			dropped: [{ id: 'c2', reason: 'below floor' }],
			abstained: false,
			reason: 'ok',
			tokens: 120,
			budget: 2000,
		},
		{ kind: 'generation', generator: 'decision-summary', status: 'ok', ms: 0.1 },
		{ kind: 'note', stage: 'store', level: 'info', message: 'research tier empty' },
	];
}

/** A complete, valid trace. */
export function sampleTrace(): DecisionTrace {
	return {
		version: 1,
		turn_id: 't1',
		steps: everyStepKind(),
		decision: {
			trigger: 'question',
			intent: 'workspace_question',
			mode: 'standard',
			path: 'rag',
			retrieve: true,
			tiers: ['workspace', 'research'],
			write: ['research'],
			route: 'workspace_question',
			followup_score: 0.1,
			rag_k: 4,
			qa_k: 4,
			rag_min_similarity: 0.45,
			qa_min_similarity: 0.65,
		},
		timings: [{ stage: 'followup', us: 4 }],
		total_us: 42,
	};
}

const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;

describe('protocol guards', () => {
	it('accept one valid message of every host → webview name', () => {
		const valid: { [K in keyof HostToWebview]: HostToWebview[K] } = {
			'chat/reply': { turnId: 't1', markdown: '**hi**', trace: sampleTrace() },
			'chat/error': { turnId: null, message: 'failed' },
			'chat/persisted': {
				turnId: 't1',
				steps: [
					{ kind: 'note', stage: 'persist', level: 'info', message: 'remembered: research inserted memory:t1:ab' },
				],
			},
			'chat/clear': {},
			'chat/focus': {},
			'state/restore': {
				restricted: true,
				entries: [
					{ kind: 'user', turnId: 't1', text: 'hello', at: 1 },
					{ kind: 'assistant', turnId: 't1', markdown: 'hi', trace: null, at: 2 },
					{
						kind: 'assistant',
						turnId: 't1-r1',
						markdown: 'see [1]',
						trace: null,
						at: 2,
						citations: [{ n: 1, label: 'a.ts:1-3', uri: 'file:///w/a.ts', startLine: 1, endLine: 3 }],
						status: 'stopped',
						generator: 'Evidence only',
						retryOf: 't1',
						retrieval: 'skip',
						actions: [
							{ id: 'run_tests-1', kind: 'terminal', label: 'Run in Terminal', detail: 'npm test', confirm: null },
						],
					},
					{ kind: 'error', turnId: null, message: 'x', at: 3 },
				],
			},
			'trace/toggle': { open: true },
			'chat/start': { turnId: 't2', generator: 'Evidence only', retryOf: 't1' },
			'chat/delta': { turnId: 't2', text: 'par' },
			'chat/progress': { turnId: 't2', message: 'Searching workspace…' },
			'generator/info': { kind: 'openai', label: 'llama3 via OpenAI-compatible' },
			'history/list': { activeId: 'c1', conversations: [{ id: 'c1', title: 'hello', at: 5, turns: 2 }] },
			'action/status': { turnId: 't1', actionId: 'run_tests-1', status: 'ran', message: 'sent to the terminal' },
			'memory/proposals': {
				proposals: [
					{
						id: '3',
						turnId: 't1',
						tier: 'research',
						kind: 'correction',
						text: 'we deploy with Kustomize',
						state: 'pending',
					},
				],
			},
		};
		assert.deepEqual(Object.keys(valid).sort(), [...HOST_TO_WEBVIEW_TYPES].sort());
		for (const [type, params] of Object.entries(valid)) {
			assert.ok(isHostToWebviewMessage({ type, params }), type);
			// A host message is never a webview message, and vice versa.
			assert.ok(!isWebviewToHostMessage({ type, params }), type);
		}
	});

	it('accept one valid message of every webview → host name', () => {
		const valid: { [K in keyof WebviewToHost]: WebviewToHost[K] } = {
			'webview/ready': {},
			'chat/send': { turnId: 't1', text: 'hello' },
			'chat/stop': { turnId: 't1' },
			'chat/retry': { turnId: 't1', newTurnId: 't1-r1', retrieval: 'force' },
			'code/copy': { code: 'x' },
			'code/insert': { code: 'x' },
			'code/newFile': { code: 'x', language: null },
			'citation/open': { uri: 'file:///w/a.ts', startLine: 3, endLine: null },
			'history/open': { id: 'c1' },
			'history/new': {},
			'action/run': { turnId: 't1', actionId: 'run_tests-1' },
			'memory/approve': { id: '3', text: 'edited' },
			'memory/discard': { id: '3' },
		};
		assert.deepEqual(Object.keys(valid).sort(), [...WEBVIEW_TO_HOST_TYPES].sort());
		for (const [type, params] of Object.entries(valid)) assert.ok(isWebviewToHostMessage({ type, params }), type);
	});

	it('reject malformed envelopes', () => {
		for (const bad of [
			null,
			undefined,
			'chat/send',
			42,
			[],
			{},
			{ type: 'chat/send' },
			{ type: 'nope', params: {} },
			{ type: 7, params: {} },
		]) {
			assert.ok(!isWebviewToHostMessage(bad), JSON.stringify(bad));
			assert.ok(!isHostToWebviewMessage(bad), JSON.stringify(bad));
		}
		// Inherited names are not message names.
		assert.ok(!isWebviewToHostMessage({ type: 'toString', params: {} }));
		assert.ok(!isWebviewToHostMessage({ type: '__proto__', params: {} }));
	});

	it('reject a field of the wrong type or a missing field', () => {
		const cases: unknown[] = [
			{ type: 'chat/send', params: { turnId: 't1' } },
			{ type: 'chat/send', params: { turnId: 1, text: 'x' } },
			{ type: 'chat/send', params: { turnId: 't1', text: null } },
			{ type: 'chat/send', params: null },
			{ type: 'webview/ready', params: [] },
			{ type: 'chat/retry', params: { turnId: 't1', newTurnId: 't2', retrieval: 'always' } },
			{ type: 'citation/open', params: { uri: 'file:///a', startLine: '3', endLine: null } },
			{ type: 'code/newFile', params: { code: 'x' } },
		];
		for (const c of cases) assert.ok(!isWebviewToHostMessage(c), JSON.stringify(c));
		assert.ok(
			!isHostToWebviewMessage({ type: 'chat/error', params: { message: 'x' } }),
			'turnId must be present (null allowed)',
		);
		assert.ok(!isHostToWebviewMessage({ type: 'trace/toggle', params: { open: 'yes' } }));
		assert.ok(
			!isHostToWebviewMessage({
				type: 'chat/reply',
				params: { turnId: 't', markdown: '', trace: null, status: 'halted' },
			}),
		);
		assert.ok(
			!isHostToWebviewMessage({
				type: 'chat/reply',
				params: { turnId: 't', markdown: '', trace: null, citations: [{ n: 1, label: 'x' }] },
			}),
		);
		assert.ok(!isHostToWebviewMessage({ type: 'generator/info', params: { kind: 'gpt', label: 'x' } }));
		assert.ok(
			!isHostToWebviewMessage({
				type: 'chat/persisted',
				params: { turnId: 't', steps: [{ kind: 'note', message: 'no stage or level' }] },
			}),
		);
		assert.ok(!isHostToWebviewMessage({ type: 'chat/persisted', params: { turnId: 't' } }));
		assert.ok(
			!isHostToWebviewMessage({
				type: 'state/restore',
				params: { restricted: false, entries: [{ kind: 'user', turnId: 't', at: 1 }] },
			}),
		);
		assert.ok(
			!isHostToWebviewMessage({
				type: 'state/restore',
				params: { restricted: false, entries: [{ kind: 'system', at: 1 }] },
			}),
		);
		// Memory proposals: a state or tier outside the lists, a numeric id, an edit that is not text.
		const chip = { id: '3', turnId: 't1', tier: 'research', kind: 'qa', text: 'x', state: 'pending' };
		assert.ok(isHostToWebviewMessage({ type: 'memory/proposals', params: { proposals: [chip] } }));
		assert.ok(
			!isHostToWebviewMessage({ type: 'memory/proposals', params: { proposals: [{ ...chip, state: 'maybe' }] } }),
		);
		assert.ok(
			!isHostToWebviewMessage({ type: 'memory/proposals', params: { proposals: [{ ...chip, tier: 'workspace' }] } }),
		);
		assert.ok(!isWebviewToHostMessage({ type: 'memory/approve', params: { id: 3 } }));
		assert.ok(!isWebviewToHostMessage({ type: 'memory/approve', params: { id: '3', text: 5 } }));
		assert.ok(!isWebviewToHostMessage({ type: 'memory/discard', params: {} }));
	});

	it('validate every trace step kind and reject broken steps', () => {
		for (const step of everyStepKind()) assert.ok(isTraceStep(step), step.kind);
		assert.ok(!isTraceStep({ kind: 'mystery' }));
		assert.ok(
			!isTraceStep({ kind: 'gate', gate: 'g', inputs: {}, value: 1, threshold: null, fired: 'yes', effect: '', us: 1 }),
		);
		assert.ok(
			!isTraceStep({
				kind: 'gate',
				gate: 'g',
				inputs: {},
				value: 1,
				threshold: Number.NaN,
				fired: true,
				effect: '',
				us: 1,
			}),
		);
		assert.ok(!isTraceStep({ kind: 'hook', point: 'nowhere', name: 'h', status: 'ok', changed: [], us: 1 }));
		assert.ok(
			!isTraceStep({
				kind: 'gate',
				gate: 'g',
				inputs: { f: () => 1 },
				value: 1,
				threshold: null,
				fired: true,
				effect: '',
				us: 1,
			}),
		);
	});

	it('validate a whole trace, and reject a wrong version, tier or timing', () => {
		assert.ok(isDecisionTrace(sampleTrace()));
		const wrongVersion = { ...sampleTrace(), version: 2 };
		assert.ok(!isDecisionTrace(wrongVersion));
		const badTier = clone(sampleTrace()) as unknown as { decision: { tiers: string[] } };
		badTier.decision.tiers = ['conversation'];
		assert.ok(!isDecisionTrace(badTier));
		const badTiming = clone(sampleTrace()) as unknown as { timings: unknown[] };
		badTiming.timings = [{ stage: 'x' }];
		assert.ok(!isDecisionTrace(badTiming));
		assert.ok(!isHostToWebviewMessage({ type: 'chat/reply', params: { turnId: 't', markdown: '', trace: badTier } }));
	});
});

/** A transport double typed from the protocol: records what was posted, delivers what is fed in. */
class FakeTransport implements MessageTransport {
	readonly posted: unknown[] = [];
	private listener: ((data: unknown) => void) | undefined;
	post(message: unknown): void {
		this.posted.push(message);
	}
	listen(listener: (data: unknown) => void): () => void {
		this.listener = listener;
		return () => (this.listener = undefined);
	}
	deliver(data: unknown): void {
		this.listener?.(data);
	}
}

describe('Messenger', () => {
	it('sends envelopes and dispatches only guarded messages', () => {
		const transport = new FakeTransport();
		const invalid: unknown[] = [];
		const host = new Messenger<WebviewToHost, HostToWebview>(transport, isWebviewToHostMessage, (d) => invalid.push(d));
		const sent: string[] = [];
		host.on('chat/send', (p) => sent.push(p.text));
		transport.deliver({ type: 'chat/send', params: { turnId: 't1', text: 'hello' } });
		transport.deliver({ type: 'chat/send', params: { turnId: 't1', text: 42 } });
		transport.deliver({ type: 'webview/ready', params: {} }); // valid, no handler: ignored
		assert.deepEqual(sent, ['hello']);
		assert.equal(invalid.length, 1);
		host.send('chat/error', { turnId: 't1', message: 'm' });
		assert.deepEqual(transport.posted, [{ type: 'chat/error', params: { turnId: 't1', message: 'm' } }]);
		assert.ok(isHostToWebviewMessage(transport.posted[0]));
		host.dispose();
		transport.deliver({ type: 'chat/send', params: { turnId: 't2', text: 'after dispose' } });
		assert.deepEqual(sent, ['hello']);
	});
});
