import * as assert from 'node:assert/strict';
import { decideTurn } from '../../../src/core/decide';
import type { HistoryTurn } from '../../../src/core/types';

// The follow-up scorer reads the turn's rule window (head + tail), like every other rule stage: what
// is pasted in the middle of a long turn must neither cost a tokenisation of kilobytes nor change
// the score.
const HISTORY: HistoryTurn[] = [
	{ role: 'user', content: 'the retry wrapper in src/net/retry.ts swallows the timeout error' },
	{
		role: 'assistant',
		content: 'It catches every error and retries; the timeout is rethrown only after the last attempt.',
	},
];
const HEAD = `ok so I tried that and it still does the same thing, here is what I get when I run it:\n${'-'.repeat(240)}\n`;
const TAIL = `\n${'-'.repeat(160)}\nany idea why it keeps doing that?`;
const middle = (line: string, chars: number) =>
	Array.from({ length: Math.ceil(chars / line.length) }, () => line).join('\n');

describe('follow-up scorer: reads the rule window of a long turn', () => {
	it('scores two long turns with the same head and tail but different pasted middles the same', () => {
		const plain = decideTurn({
			utterance: HEAD + middle('    at step (worker.js:10:5)', 6000) + TAIL,
			history: HISTORY,
		});
		// A middle full of names and identifiers no earlier turn used: read whole, they are a "new subject".
		const named = decideTurn({
			utterance:
				HEAD + middle('    at KafkaConsumerGroup.rebalancePartitions (OrderLedgerService.java:88)', 6000) + TAIL,
			history: HISTORY,
		});
		assert.deepEqual(
			named.followup.signals.map((s) => [s.name, s.match]),
			plain.followup.signals.map((s) => [s.name, s.match]),
		);
		assert.equal(named.followup.score, plain.followup.score);
	});

	it('still reads names in the head of a long turn (the window is not empty)', () => {
		const r = decideTurn({
			utterance: `what about KafkaConsumerGroup then?\n${middle('x', 6000)}`,
			history: HISTORY,
		});
		const fresh = r.followup.signals.find((s) => s.name === 'new_subject');
		assert.ok(fresh, `signals: ${r.followup.signals.map((s) => s.name).join(' ')}`);
		assert.match(String(fresh.match), /kafkaconsumergroup/i);
	});
});
