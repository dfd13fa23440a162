import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { scoreGate } from '../../src/cli/evalGate';
import { readLabelledTurns, type LabelledTurn, type Predictor, type TurnPrediction } from '../../src/cli/evalShared';
import { seedPredict, seedTrigger } from '../../src/cli/seedBaseline';
import { runCli } from '../../src/cli/main';
import { captureIo } from '../fixtures/captureIo';

const CONVERSATIONS = resolve(__dirname, '../fixtures/eval/conversations.jsonl');

function tempFile(lines: unknown[]): string {
	const file = join(mkdtempSync(join(tmpdir(), 'gmem-evalgate-')), 'turns.jsonl');
	writeFileSync(file, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n');
	return file;
}

function turn(id: string, labels: LabelledTurn['labels'], history = 1): LabelledTurn {
	return {
		id,
		conversationId: 'c',
		history: Array.from({ length: history }, () => ({ role: 'user' as const, content: 'x' })),
		utterance: id,
		labels,
	};
}

const fixed = (byId: Record<string, TurnPrediction>): Predictor => ({ name: 'stub', predict: (t) => byId[t.id]! });
const P = (retrieve: boolean, path: TurnPrediction['path'], extra: Partial<TurnPrediction> = {}): TurnPrediction => ({
	retrieve,
	tiers: retrieve ? ['workspace'] : [],
	path,
	trigger: retrieve ? 'question' : 'statement',
	is_followup: false,
	...extra,
});

describe('eval gate: reading labelled conversations', () => {
	it('builds each user turn with everything said before it, assistant turns included', async () => {
		const file = tempFile([
			{
				id: 'a1',
				conversation_id: 'a',
				role: 'user',
				content: 'where is the config loaded?',
				should_retrieve: true,
				tiers: ['research', 'workspace'],
			},
			{ conversation_id: 'a', role: 'assistant', content: 'in loadConfig.ts' },
			{ conversation_id: 'b', role: 'user', content: 'hi', trigger: 'greeting' },
			{ id: 'a2', conversation_id: 'a', role: 'user', content: 'thanks', path: 'direct' },
			{ id: 'flat', history: ['earlier'], utterance: 'and now?', depends_on_context: true },
			{ id: 'bad', conversation_id: 'a', role: 'user', content: 'x', path: 'search' },
			'not json',
		]);
		const c = captureIo();
		const { turns, bad } = await readLabelledTurns(file, c.io, 'gate');
		assert.equal(bad, 2);
		assert.match(c.err(), /line 6: "path" must be one of direct, tool, rag, clarify, refuse/);
		assert.deepEqual(
			turns.map((t) => t.id),
			['a1', 'b-1', 'a2', 'flat'],
		);
		assert.deepEqual(turns[0]!.labels.tiers, ['workspace', 'research'], 'tiers are put in contract order');
		assert.deepEqual(turns[2]!.history, [
			{ role: 'user', content: 'where is the config loaded?' },
			{ role: 'assistant', content: 'in loadConfig.ts' },
		]);
		assert.deepEqual(turns[3]!.history, [{ role: 'user', content: 'earlier' }]);
	});
});

describe('eval gate: scoring (hand-computed)', () => {
	const turns = [
		turn('needed', { should_retrieve: true, tiers: ['workspace', 'research'], path: 'rag', depends_on_context: true }),
		turn('live', { should_retrieve: false, tiers: [], path: 'tool' }),
		turn('vague', { should_retrieve: false, path: 'clarify' }),
		turn('first', { should_retrieve: false, path: 'direct', depends_on_context: false }, 0),
	];
	const score = scoreGate(
		turns,
		fixed({
			needed: P(true, 'rag', { tiers: ['workspace', 'research', 'profile'], is_followup: true }),
			live: P(true, 'rag'), // a live-state question answered from stored text: a tool fallback
			vague: P(false, 'clarify'),
			first: P(false, 'refuse', { is_followup: true }),
		}),
	);

	it('counts each field only where it is labelled', () => {
		assert.deepEqual([score.fields.retrieve.correct, score.fields.retrieve.n], [3, 4]);
		assert.deepEqual(
			[score.fields.tiers.correct, score.fields.tiers.n],
			[0, 2],
			'exact sets: extra profile and extra workspace both miss',
		);
		assert.deepEqual(
			[score.fields.tiers_cover.correct, score.fields.tiers_cover.n],
			[2, 2],
			'every labelled tier was searched',
		);
		assert.deepEqual([score.fields.path.correct, score.fields.path.n], [2, 4]);
		assert.deepEqual(
			[score.fields.followup.correct, score.fields.followup.n],
			[1, 1],
			'the first turn is not scored for follow-up',
		);
	});

	it('derives retrieval necessity, tool fallback and abstention', () => {
		assert.equal(score.retrieval.recall, 1); // 1 of 1 needed turn retrieved
		assert.equal(score.retrieval.specificity, 2 / 3); // 2 of 3 unneeded turns skipped
		assert.deepEqual(score.tool_fallback, { tool_turns: 1, fallbacks: 1, rate: 1 });
		assert.deepEqual(score.abstention, { labelled: 1, predicted: 2, correct: 1, recall: 1, precision: 0.5 });
		assert.equal(score.confusion.path.counts.tool!.rag, 1);
		assert.ok(
			score.errors.some((e) => e.id === 'live' && e.field === 'path' && e.label === 'tool' && e.decided === 'rag'),
		);
	});
});

describe('seed baseline (seed 000 follow-up + seed 004 trigger, reconstructed)', () => {
	it('keeps seed 004 order: corrections and instructions before the question mark', () => {
		assert.equal(seedTrigger('I left Northwind last month, remember?'), 'correction');
		assert.equal(seedTrigger('Can you keep answers shorter from now on?'), 'instruction');
		assert.equal(seedTrigger('Do you remember where I work?'), 'recall');
		assert.equal(seedTrigger('Where do I work and what should I not eat?'), 'question');
		assert.equal(seedTrigger('thanks'), 'statement', 'the seed has no acknowledgement class');
		assert.equal(seedTrigger('fix the failing test'), 'statement', 'no question mark, no question');
	});

	it('retrieves on recall and questions only, from the seed routes', () => {
		assert.deepEqual(seedPredict({ utterance: 'remind me what we chose', history: [] }).tiers, ['research']);
		const q = seedPredict({ utterance: 'where is the config?', history: [] });
		assert.deepEqual([q.retrieve, q.path, q.tiers], [true, 'rag', ['workspace', 'research']]);
		assert.deepEqual([seedPredict({ utterance: 'always use tabs', history: [] }).path], ['direct']);
	});
});

describe('gmem eval gate', () => {
	it('scores the fixture conversations for the core and the seed baseline', async () => {
		const c = captureIo();
		assert.equal(await runCli(['eval', 'gate', CONVERSATIONS, '--baseline', 'seed', '--json'], c.io), 0);
		const e = JSON.parse(c.out());
		assert.equal(e.turns, 70);
		assert.equal(e.conversations, 12);
		assert.equal(e.bad_lines, 0);
		assert.deepEqual(
			e.rules.map((r: { rule: string }) => r.rule),
			['gated-memory', 'seed-baseline'],
		);
		for (const r of e.rules) assert.equal(r.fields.retrieve.n, 70);
	});

	it('prints the tables and the disagreements', async () => {
		const c = captureIo();
		assert.equal(await runCli(['eval', 'gate', CONVERSATIONS, '--errors'], c.io), 0);
		assert.match(c.out(), /retrieved when needed \(recall\)/);
		assert.match(c.out(), /gated-memory: path \(rows: label, columns: decision\)/);
		assert.match(c.out(), /gated-memory: \d+ disagreements/);
	});

	it('rejects an unknown baseline and a missing file with exit 1', async () => {
		assert.equal(await runCli(['eval', 'gate', CONVERSATIONS, '--baseline', 'bm25'], captureIo().io), 1);
		assert.equal(await runCli(['eval', 'gate', 'no/such/file.jsonl'], captureIo().io), 1);
	});
});
