import * as assert from 'node:assert/strict';
import { isHostToWebviewMessage, type HostToWebviewMessage } from '../../src/core/protocol';
import { DEFAULT_THRESHOLDS } from '../../src/core/thresholds';
import type { GateResult, TurnInput } from '../../src/core/types';
import { ChatController, type PostFn } from '../../src/chat/chatController';
import { decisionHeadline } from '../../src/chat/replyText';
import { escapeMarkdown } from '../../src/generation/markdownText';
import type { Logger } from '../../src/chat/logger';
import { sampleTrace } from './protocol.test';

/** A Logger that keeps what it was told. */
class MemoryLogger implements Logger {
	readonly lines: string[] = [];
	trace(m: string): void {
		this.lines.push(`trace ${m}`);
	}
	debug(m: string): void {
		this.lines.push(`debug ${m}`);
	}
	info(m: string): void {
		this.lines.push(`info ${m}`);
	}
	warn(m: string): void {
		this.lines.push(`warn ${m}`);
	}
	error(e: string | Error): void {
		this.lines.push(`error ${e instanceof Error ? e.message : e}`);
	}
}

function fakeResult(input: TurnInput): GateResult {
	const trace = sampleTrace();
	return {
		id: input.id ?? null,
		followup: { score: 0.1, is_followup: false, signals: [] },
		trigger: 'question',
		intent: 'workspace_question',
		mode: 'standard',
		path: 'rag',
		retrieve: true,
		tiers: ['workspace', 'research'],
		write: ['research'],
		route: 'workspace_question',
		policy: {
			inject_profile: false,
			inject_rag: true,
			inject_qa_history: true,
			use_curated_history: false,
			privacy_mode: false,
			route: 'workspace_question',
			rag_k: 4,
			rag_min_similarity: 0.45,
			qa_k: 4,
			qa_min_similarity: 0.65,
		},
		trace,
	};
}

function harness(decide?: (input: TurnInput) => GateResult, restricted = false) {
	const posted: HostToWebviewMessage[] = [];
	const log = new MemoryLogger();
	const inputs: TurnInput[] = [];
	const controller = new ChatController({
		log,
		thresholds: () => DEFAULT_THRESHOLDS,
		isRestricted: () => restricted,
		decide: decide
			? (input) => {
					inputs.push(input);
					return decide(input);
				}
			: undefined,
	});
	const post: PostFn = (type, params) => {
		const message: unknown = { type, params };
		assert.ok(isHostToWebviewMessage(message), `host posted an invalid ${type}`);
		posted.push(message);
	};
	controller.attach(post);
	return { controller, posted, log, inputs };
}

describe('host side of the protocol (ChatController)', () => {
	it('answers chat/send with a guarded chat/reply that states the decision', async () => {
		const { controller, posted, inputs } = harness(fakeResult);
		await controller.send('t1', 'How does parseConfig work?');
		assert.equal(posted.length, 1);
		const reply = posted[0];
		assert.equal(reply.type, 'chat/reply');
		if (reply.type !== 'chat/reply') return;
		assert.match(
			reply.params.markdown,
			/\*\*Would search\*\* workspace \(k=4, floor 0\.45\) \+ research \(k=4, floor 0\.65\)/,
		);
		assert.equal(inputs[0].history.length, 0, 'a turn is not its own history');
		await controller.send('t2', 'and the tests?');
		assert.deepEqual(
			inputs[1].history.map((h) => h.role),
			['user', 'assistant'],
		);
		assert.equal(inputs[1].context?.user_turn_times?.length, 1);
		// The assistant turn in history is the decision, not an echo of the user's words.
		assert.ok(!inputs[1].history[1].content.includes('parseConfig'), inputs[1].history[1].content);
		assert.match(inputs[1].history[1].content, /^\*\*Would search\*\*/);
	});

	it('quotes the message escaped, so HTML in it stays text in the Markdown', async () => {
		const { controller, posted } = harness(fakeResult);
		await controller.send('t1', 'What does <img src=x onerror=alert(1)> do?');
		const reply = posted[0];
		assert.ok(reply.type === 'chat/reply');
		assert.ok(reply.params.markdown.includes('\\<img src=x onerror=alert\\(1\\)\\>'));
	});

	it('reports a failing core as chat/error and keeps going', async () => {
		let calls = 0;
		const { controller, posted, log } = harness(() => {
			calls++;
			if (calls === 1) throw new Error('rule table corrupt');
			return fakeResult({ history: [], utterance: '' });
		});
		await controller.send('t1', 'first');
		await controller.send('t2', 'second');
		assert.deepEqual(
			posted.map((m) => m.type),
			['chat/error', 'chat/reply'],
		);
		assert.ok(log.lines.some((l) => l.startsWith('error rule table corrupt')));
		assert.equal(controller.session.entries.length, 4);
	});

	it('passes Restricted Mode to the core and clears on New Conversation', async () => {
		const { controller, posted, inputs } = harness(fakeResult, true);
		await controller.send('t1', 'hello');
		assert.equal(inputs[0].context?.restricted, true);
		assert.match(posted[0].type === 'chat/reply' ? posted[0].params.markdown : '', /Restricted Mode/);
		// What persisting did reaches the panel too: in Restricted Mode, that nothing was written.
		assert.ok(
			posted[1].type === 'chat/persisted' &&
				posted[1].params.steps.some((s) => s.kind === 'note' && s.message === 'Restricted Mode: nothing written'),
		);
		controller.clear();
		assert.equal(posted[2].type, 'chat/clear');
		assert.equal(controller.session.entries.length, 0);
		controller.sendState();
		assert.deepEqual(posted[3], {
			type: 'state/restore',
			params: { entries: [], restricted: true, generator: { kind: 'evidence', label: 'Evidence only (no model)' } },
		});
	});

	it('says each answer path in words', () => {
		const base = fakeResult({ history: [], utterance: '' });
		assert.match(decisionHeadline({ ...base, path: 'clarify' }), /clarifying question/);
		assert.match(decisionHeadline({ ...base, path: 'refuse' }), /Declined/);
		assert.match(
			decisionHeadline({ ...base, path: 'direct', retrieve: false, tiers: [], trigger: 'ack' }),
			/No lookup needed:.*acknowledgement/,
		);
		assert.match(
			decisionHeadline({ ...base, tiers: ['profile'] }),
			/Would search\*\* profile \(stored facts and preferences\)/,
		);
		assert.equal(escapeMarkdown('*a* [b](c) <d>'), '\\*a\\* \\[b\\]\\(c\\) \\<d\\>');
	});

	it('with the real decision core: a greeting needs no lookup, a code question names tiers', async () => {
		const { controller, posted } = harness();
		await controller.send('t1', 'hello');
		await controller.send('t2', 'How does parseConfig in src/config.ts handle invalid JSON input?');
		const [hello, code] = posted;
		assert.ok(hello.type === 'chat/reply' && code.type === 'chat/reply', JSON.stringify(posted).slice(0, 300));
		assert.match(hello.params.markdown, /No lookup needed/);
		assert.equal(hello.params.trace?.decision.retrieve, false);
		assert.ok((code.params.trace?.decision.tiers ?? []).includes('workspace'));
	});
});
