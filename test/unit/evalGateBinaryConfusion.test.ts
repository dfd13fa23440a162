import assert from 'node:assert/strict';
import { formatBinaryConfusion, scoreGate } from '../../src/cli/evalGate';
import type { LabelledTurn, TurnPrediction } from '../../src/cli/evalShared';

// Four later turns with hand-set labels and decisions: one of each cell of the follow-up matrix.
const turn = (id: string, followup: boolean): LabelledTurn => ({
	id,
	conversationId: 'c',
	history: [{ role: 'user', content: 'earlier' }],
	utterance: id,
	labels: { depends_on_context: followup },
});
const decided = (followup: boolean): TurnPrediction => ({
	retrieve: false,
	tiers: [],
	path: 'direct',
	trigger: 'question',
	is_followup: followup,
	write: [],
});

describe('eval gate: binary confusion matrices (retrieve, follow-up)', () => {
	const turns = [turn('tp', true), turn('fn', true), turn('fp', false), turn('tn', false), turn('tn2', false)];
	const said: Record<string, boolean> = { tp: true, fn: false, fp: true, tn: false, tn2: false };
	const score = scoreGate(turns, { name: 'stub', predict: (t) => decided(said[t.id]!) });

	it('puts label rows against decision columns with per-class recall', () => {
		const lines = formatBinaryConfusion('stub: follow-up', score.followup).split('\n');
		assert.equal(lines[0], 'stub: follow-up (rows: label, columns: decision)');
		assert.deepEqual(lines[3].trim().split(/\s+/), ['yes', '1', '1', '0.500']);
		assert.deepEqual(lines[4].trim().split(/\s+/), ['no', '1', '2', '0.667']);
	});
});
