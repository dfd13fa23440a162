/**
 * A 1 MB pasted message and a 5,000-turn conversation through the decision core's public
 * `decideTurn` and the host's history and prompt windows: every call completes in bounded time,
 * the decision core sees at most HISTORY_WINDOW turns from the session, and the prompt stays
 * bounded — the user's own message included (its middle is cut past UTTERANCE_BUDGET_CHARS).
 * Insensitive to decision labels: only that a decision comes back, how long it took, and sizes.
 */
import assert from 'node:assert/strict';
import { decideTurn } from '../../../src/core/decide';
import type { HistoryTurn } from '../../../src/core/types';
import { DEFAULT_THRESHOLDS } from '../../../src/core/thresholds';
import { ConversationSession, HISTORY_WINDOW } from '../../../src/chat/conversationSession';
import { assemblePrompt, estimateTokens, UTTERANCE_BUDGET_CHARS } from '../../../src/generation/promptAssembly';

const MB = 1024 * 1024;
// Generous: the gate runs in microseconds on normal turns; this only catches a super-linear blow-up.
const GATE_BUDGET_MS = 5_000;
const pasted = () =>
	Array.from(
		{ length: Math.ceil(MB / 60) },
		(_, i) => `at handler${i} (src/server/routes.ts:${i}:13) TypeError: x is undefined`,
	)
		.join('\n')
		.slice(0, MB);

function timed<T>(f: () => T): { value: T; ms: number } {
	const t0 = performance.now();
	const value = f();
	return { value, ms: performance.now() - t0 };
}

/** A session holding `turns` exchanges (user + assistant), with one 1 MB message among them. */
function longSession(turns: number): ConversationSession {
	const s = new ConversationSession(() => 1_700_000_000_000);
	for (let i = 0; i < turns; i++) {
		s.addUser(
			`u${i}`,
			i === turns - 3 ? pasted() : `question ${i} about the parser and the config loader?`,
			1_700_000_000_000 + i,
		);
		s.addAssistant(`u${i}`, '', `answer ${i}: `.padEnd(3000, 'x'), null);
	}
	return s;
}

describe('faults: a 1 MB message and a 5,000-turn history through the decision core and the prompt', function () {
	this.timeout(120_000);

	it('decideTurn on a 1 MB pasted message returns a decision in bounded time', () => {
		const { value, ms } = timed(() =>
			decideTurn({ history: [], utterance: pasted() }, { thresholds: DEFAULT_THRESHOLDS }),
		);
		assert.ok(value.trace, 'a decision with its trace');
		assert.ok(ms < GATE_BUDGET_MS, `decideTurn took ${ms.toFixed(0)} ms`);
	});

	it('decideTurn on a raw 5,000-turn history (not windowed) returns in bounded time', () => {
		const history: HistoryTurn[] = Array.from({ length: 5000 }, (_, i) =>
			i % 2
				? { role: 'assistant' as const, content: `answer ${i} about parseConfig` }
				: { role: 'user' as const, content: `question ${i} about the parser?` },
		);
		const { value, ms } = timed(() =>
			decideTurn({ history, utterance: 'and what about the second one?' }, { thresholds: DEFAULT_THRESHOLDS }),
		);
		assert.ok(value.trace);
		assert.ok(ms < GATE_BUDGET_MS, `decideTurn took ${ms.toFixed(0)} ms`);
	});

	it('a 5,000-turn session: the gate sees the window, the prompt stays bounded (a 1 MB message in history is cut)', () => {
		const s = longSession(5000);
		const history = s.history();
		assert.ok(history.length <= HISTORY_WINDOW, `${history.length} turns to the gate`);
		const { ms } = timed(() =>
			decideTurn({ history, utterance: 'why does it fail there?' }, { thresholds: DEFAULT_THRESHOLDS }),
		);
		assert.ok(ms < GATE_BUDGET_MS, `decideTurn took ${ms.toFixed(0)} ms with a 1 MB turn in the window`);
		const chat = s.chatWindow(DEFAULT_THRESHOLDS.conversation_window_turns);
		assert.ok(chat.length <= DEFAULT_THRESHOLDS.conversation_window_turns);
		assert.ok(
			chat.every((m) => m.content.length <= 4001),
			'every window message is cut to 4,000 characters',
		);
		const evidence = Array.from({ length: 50 }, (_, i) => ({
			source: 'workspace' as const,
			path: `src/f${i}.ts`,
			startLine: 1,
			endLine: 30,
			symbol: null,
			text: `chunk ${i} `.repeat(400),
		}));
		const budget = DEFAULT_THRESHOLDS.prompt_evidence_budget_tokens;
		const prompt = assemblePrompt({
			utterance: 'why does it fail there?',
			history: chat,
			evidence,
			instructions: [],
			budgetTokens: budget,
			route: 'rag',
		});
		const bound = 1_000 /* system */ + DEFAULT_THRESHOLDS.conversation_window_turns * 1_001 + budget + 100;
		assert.ok(prompt.tokens <= bound, `prompt ~${prompt.tokens} tokens, bound ${bound}`);
	});

	it('a 1 MB message as the question: the whole prompt stays bounded, the message cut to its head and tail', () => {
		const utterance = pasted();
		const chat = longSession(5000).chatWindow(DEFAULT_THRESHOLDS.conversation_window_turns);
		const budget = DEFAULT_THRESHOLDS.prompt_evidence_budget_tokens;
		const { value: prompt, ms } = timed(() =>
			assemblePrompt({ utterance, history: chat, evidence: [], instructions: [], budgetTokens: budget, route: 'rag' }),
		);
		const bound =
			1_000 +
			DEFAULT_THRESHOLDS.conversation_window_turns * 1_001 +
			estimateTokens('x'.repeat(UTTERANCE_BUDGET_CHARS)) +
			20;
		assert.ok(prompt.tokens <= bound, `prompt ~${prompt.tokens} tokens, bound ${bound}`);
		assert.equal(
			prompt.utteranceCut,
			utterance.length -
				(prompt.messages.at(-1)!.content.length -
					/\n\[… [\d,]+ characters cut …\]\n/.exec(prompt.messages.at(-1)!.content)![0].length),
		);
		assert.ok(ms < GATE_BUDGET_MS, `assemblePrompt took ${ms.toFixed(0)} ms`);
	});
});
