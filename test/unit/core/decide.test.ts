import * as assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decideTurn } from '../../../src/core/decide';
import { DEFAULT_THRESHOLDS } from '../../../src/core/thresholds';
import { analyzeText } from '../../../src/core/text/turnText';
import { TRACE_VERSION, type DecisionTrace, type TraceStep } from '../../../src/core/trace';
import { TIERS, WRITE_TIERS, type GateResult, type HistoryTurn, type TurnInput } from '../../../src/core/types';

const FIXTURES = join(__dirname, '../../fixtures');

function fixtureTurns(): Array<TurnInput & { expect: Record<string, unknown>; known_miss?: string }> {
	return readFileSync(join(FIXTURES, 'gate_coding.jsonl'), 'utf8')
		.split('\n')
		.filter((l) => l.trim())
		.map((l) => {
			const o = JSON.parse(l);
			const history: HistoryTurn[] = o.history.map((h: string | HistoryTurn) =>
				typeof h === 'string' ? { role: 'user', content: h } : h,
			);
			return { ...o, history };
		});
}

/** The contract's invariants, checked on every decision. */
function assertContract(r: GateResult, label: string): void {
	assert.equal(r.retrieve, r.tiers.length > 0, label);
	assert.deepEqual(
		r.tiers,
		TIERS.filter((t) => r.tiers.includes(t)),
		`${label}: tiers in contract order`,
	);
	assert.deepEqual(
		r.write,
		WRITE_TIERS.filter((t) => r.write.includes(t)),
		`${label}: write in contract order`,
	);
	assert.equal(r.policy.inject_rag, r.tiers.includes('workspace'), label);
	assert.equal(r.policy.inject_qa_history, r.tiers.includes('research'), label);
	assert.equal(r.policy.inject_profile, r.tiers.includes('profile'), label);
	assert.equal(r.policy.route, r.route, label);
	assert.equal(r.trace.version, TRACE_VERSION);
	assert.deepEqual(r.trace.decision.tiers, r.tiers);
	assert.equal(r.trace.decision.route, r.route);
	if (r.path === 'refuse' || r.path === 'clarify' || r.path === 'direct')
		assert.deepEqual(r.tiers, [], `${label}: ${r.path} searches nothing`);
	for (const s of r.trace.steps) if (s.kind === 'gate' || s.kind === 'hook') assert.ok(s.us >= 0, label);
}

/** The decision without the follow-up probability, which moves with every re-fit. */
function withoutScore(d: DecisionTrace['decision']): Omit<DecisionTrace['decision'], 'followup_score'> {
	const rest: Partial<DecisionTrace['decision']> = { ...d };
	delete rest.followup_score;
	return rest as Omit<DecisionTrace['decision'], 'followup_score'>;
}

/** The stable parts of a trace (no timings), in the shape of the golden files. */
function stable(trace: DecisionTrace, withInputsFor: Set<string>) {
	return {
		version: trace.version,
		turn_id: trace.turn_id,
		steps: trace.steps.map((s: TraceStep) => {
			if (s.kind !== 'gate') return s.kind === 'note' ? s : { kind: s.kind };
			// The learned heads' probabilities move with every re-fit; their presence and order are stable.
			if (s.gate === 'features' || s.gate.startsWith('learned:')) return { kind: s.kind, gate: s.gate };
			const base: Record<string, unknown> = {
				kind: s.kind,
				gate: s.gate,
				value: s.value,
				threshold: s.threshold,
				fired: s.fired,
			};
			if (withInputsFor.has(s.gate)) base.inputs = s.inputs;
			return base;
		}),
		decision: withoutScore(trace.decision),
		stages: trace.timings.map((t) => t.stage),
	};
}

describe('decideTurn', () => {
	it('meets every expectation of the coding fixture (seed 004, seed 001 and coding cases)', () => {
		for (const turn of fixtureTurns()) {
			const r = decideTurn(turn) as unknown as Record<string, unknown>;
			const mismatches = Object.entries(turn.expect).filter(([key, want]) => !isDeepStrictEqual(r[key], want));
			if (turn.known_miss) {
				// Listed, not hidden: a known miss must still miss (else drop the marker) and says why.
				assert.ok(mismatches.length > 0, `${turn.id} is marked known_miss but now passes: remove the marker`);
				console.log(`      known miss ${turn.id}: ${turn.known_miss}`);
			} else {
				for (const [key, want] of mismatches) assert.deepEqual(r[key], want, `${turn.id}: ${key}`);
			}
			assertContract(r as unknown as GateResult, String(turn.id));
		}
	});

	it('matches the hand-written golden traces (timings stripped)', () => {
		const dir = join(FIXTURES, 'golden');
		const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
		assert.ok(files.length >= 3);
		for (const f of files) {
			const golden = JSON.parse(readFileSync(join(dir, f), 'utf8'));
			const withInputs = new Set<string>(
				golden.expected.steps.filter((s: { inputs?: unknown }) => s.inputs).map((s: { gate: string }) => s.gate),
			);
			const r = decideTurn(golden.input);
			assert.deepEqual(stable(r.trace, withInputs), golden.expected, f);
		}
	});

	it('records one gate step per gate with inputs, value, threshold, fired, effect and µs', () => {
		const r = decideTurn({ history: [], utterance: 'where is parseConfig defined?' });
		const gates = r.trace.steps.filter((s) => s.kind === 'gate');
		assert.deepEqual(
			gates.map((g) => (g.kind === 'gate' ? g.gate : '')),
			[
				...[
					'followup',
					'trigger',
					'intent',
					'behavior',
					'policy',
					'overlay:personal_reference',
					'overlay:followup_research',
					'overlay:past_reference',
					'overlay:privacy',
					'retrieval_gate',
					'volume',
					'restricted',
					'path',
					'path_tiers',
					'write',
				],
				...[
					'refusal',
					'features',
					'learned:followup',
					'learned:trigger',
					'learned:path',
					'learned:tier_workspace',
					'learned:tier_research',
					'learned:tier_profile',
				],
			],
		);
		for (const g of gates) {
			if (g.kind !== 'gate') continue;
			assert.equal(typeof g.effect, 'string');
			assert.equal(typeof g.inputs, 'object');
			assert.equal(typeof g.us, 'number');
		}
		assert.ok(r.trace.total_us >= 0);
	});

	it('uses the injected clock for every timing', () => {
		let now = 0;
		const clock = () => (now += 10);
		const r = decideTurn({ history: [], utterance: 'hi' }, { clock });
		for (const s of r.trace.steps) if (s.kind === 'gate') assert.equal(s.us % 10, 0);
		for (const t of r.trace.timings) assert.equal(t.us % 10, 0);
		assert.ok(r.trace.total_us > 0);
	});

	it('never throws on odd input', () => {
		const odd = [
			'',
			'   ',
			'?',
			'!!!',
			'```',
			'🙂🙂',
			'a'.repeat(20000),
			'über naïve café?',
			'NULL',
			'\u0000',
			'remember?',
			'no',
			'actually?',
		];
		for (const u of odd)
			assertContract(
				decideTurn({ history: [{ role: 'assistant', content: '' }], utterance: u }),
				JSON.stringify(u).slice(0, 30),
			);
	});

	it('rules read a bounded window of long turns: head and tail', () => {
		const long = 'I pasted this log: ' + 'a.b-c '.repeat(3000);
		assert.ok(analyzeText(long).raw.length <= 2005);
		assert.equal(
			decideTurn({ history: [], utterance: long + ' anyway, I left Northwind last month, remember?' }).trigger,
			'correction',
		);
		assert.equal(
			decideTurn({ history: [], utterance: 'from now on answer in French. ' + 'x '.repeat(5000) }).trigger,
			'instruction',
		);
	});

	it('a malformed history entry from a host does not fail the turn', () => {
		const history = [
			{ role: 'user', content: null },
			{ role: 'user', content: 'how is the cache keyed?' },
		] as unknown as HistoryTurn[];
		const r = decideTurn({ history, utterance: 'and the tests for it?' });
		assertContract(r, 'malformed history');
		assert.equal(r.trigger, 'question');
	});

	it('passes the id through (null when absent)', () => {
		assert.equal(decideTurn({ id: 'x1', history: [], utterance: 'hi' }).id, 'x1');
		assert.equal(decideTurn({ history: [], utterance: 'hi' }).id, null);
	});

	it('is deterministic apart from timings', () => {
		const input: TurnInput = {
			history: ['how is the cache keyed?'].map((c) => ({ role: 'user' as const, content: c })),
			utterance: 'and the tests for it?',
		};
		const a = decideTurn(input, { clock: () => 0 });
		const b = decideTurn(input, { clock: () => 0 });
		assert.deepEqual(a, b);
	});

	it('a question that states a fact about the user is answered and writes nothing (rubric: questions write nothing)', () => {
		const r = decideTurn({ history: [], utterance: "I'm new to Rust, how do I borrow a value twice?" });
		assert.equal(r.trigger, 'question');
		assert.deepEqual(r.write, []);
		assert.deepEqual(decideTurn({ history: [], utterance: 'Where do I work?' }).write, []);
	});

	it('an elliptical follow-up is a follow-up', () => {
		// Known miss (docs/evaluation.md): the learned path head sends this short follow-up to `tool`
		// (rapid-fire commands in training look alike); the rubric would read the workspace.
		const r = decideTurn({
			history: [{ role: 'user', content: 'how does the indexer skip binaries?' }],
			utterance: 'and what about symlinks?',
		});
		assert.equal(r.followup.is_followup, true);
	});

	it('a 50 KB assistant reply is read through bounded windows: its head and its tail', () => {
		const cap = DEFAULT_THRESHOLDS.followup_history_chars;
		// The head is exactly `cap` characters; the identifiers the turn asks about come only after it,
		// in the middle of the reply, which no rule reads; the reply's last sentence is its tail.
		const head = 'The scheduler drains pending jobs in order. '.repeat(Math.ceil(cap / 44)).slice(0, cap - 1) + ' ';
		const middle = 'Then flushQueue calls renderWidget for every batch. ' + 'lorem ipsum dolor sit amet '.repeat(1900);
		const end = ' '.repeat(500) + 'Want me to add a test for the ordering?';
		const turn = (reply: string): TurnInput => ({
			history: [
				{ role: 'user', content: 'how are background jobs scheduled?' },
				{ role: 'assistant', content: reply },
			],
			utterance: 'does flushQueue run before renderWidget?',
		});
		assert.ok((head + middle + end).length > 50_000);
		const huge = decideTurn(turn(head + middle + end));
		const windows = decideTurn(turn(head + middle.slice(0, 200) + ' '.repeat(600) + end));
		const strip = (r: GateResult) => ({
			...r,
			trace: { ...r.trace, steps: r.trace.steps.map((s) => ({ ...s, us: 0 })), timings: [], total_us: 0 },
		});
		assert.deepEqual(strip(huge), strip(windows));
		assert.ok(
			huge.followup.signals.some((s) => s.name === 'new_subject'),
			'the identifiers past the cap are not read',
		);
	});
});
