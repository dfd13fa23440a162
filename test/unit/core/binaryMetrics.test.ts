import assert from 'node:assert/strict';
import { binaryMetrics, emptyConfusion, tally } from '../../../src/core/metrics/binaryMetrics';

const close = (actual: number, expected: number, what: string): void =>
	assert.ok(Math.abs(actual - expected) < 1e-9, `${what}: ${actual} != ${expected}`);

describe('binaryMetrics', () => {
	it('derives every figure from a hand-computed confusion matrix (TP 6, FP 2, TN 3, FN 1)', () => {
		const m = binaryMetrics({ tp: 6, fp: 2, tn: 3, fn: 1 });
		assert.equal(m.n, 12);
		close(m.accuracy, 9 / 12, 'accuracy'); // (6 + 3) / 12
		close(m.recall, 6 / 7, 'recall'); // 6 / (6 + 1)
		close(m.specificity, 3 / 5, 'specificity'); // 3 / (3 + 2)
		close(m.precision, 6 / 8, 'precision'); // 6 / (6 + 2)
		close(m.f1, 0.8, 'f1'); // 2 * 0.75 * 0.857142… / (0.75 + 0.857142…) = 0.8
		close(m.balanced_accuracy, (6 / 7 + 3 / 5) / 2, 'balanced accuracy'); // 0.728571…
		close(m.mcc, 16 / Math.sqrt(1120), 'mcc'); // (6*3 - 2*1) / sqrt(8 * 7 * 5 * 4) = 0.478091…
	});

	it('a constant "always positive" rule: specificity 0, balanced accuracy 0.5, MCC 0', () => {
		const m = binaryMetrics({ tp: 4, fp: 1, tn: 0, fn: 0 });
		assert.equal(m.recall, 1);
		assert.equal(m.specificity, 0);
		assert.equal(m.balanced_accuracy, 0.5);
		assert.equal(m.mcc, 0);
		close(m.accuracy, 0.8, 'accuracy');
	});

	it('a perfect and an inverted classifier reach MCC 1 and -1', () => {
		assert.equal(binaryMetrics({ tp: 3, fp: 0, tn: 2, fn: 0 }).mcc, 1);
		assert.equal(binaryMetrics({ tp: 0, fp: 2, tn: 0, fn: 3 }).mcc, -1);
	});

	it('an empty matrix gives zeros, not NaN', () => {
		const m = binaryMetrics(emptyConfusion());
		for (const [k, v] of Object.entries(m)) assert.ok(Number.isFinite(v), `${k} is ${v}`);
		assert.equal(m.n, 0);
	});

	it('tally counts each (predicted, gold) pair in its cell', () => {
		const c = emptyConfusion();
		tally(c, true, true);
		tally(c, true, false);
		tally(c, false, false);
		tally(c, false, false);
		tally(c, false, true);
		assert.deepEqual(c, { tp: 1, fp: 1, tn: 2, fn: 1 });
	});
});
