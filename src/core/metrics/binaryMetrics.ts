/** Confusion-matrix metrics for a binary decision (e.g. "is this turn a follow-up?"). Pure. */

/** Counts of one binary classifier against gold labels. */
export interface Confusion {
	tp: number;
	fp: number;
	tn: number;
	fn: number;
}

/** The figures an unbalanced binary task should be judged by; a ratio with a zero denominator is 0. */
export interface BinaryMetrics extends Confusion {
	n: number;
	accuracy: number;
	/** TP / (TP + FN): share of positives found (sensitivity). */
	recall: number;
	/** TN / (TN + FP): share of negatives left alone. */
	specificity: number;
	/** TP / (TP + FP). */
	precision: number;
	f1: number;
	/** (recall + specificity) / 2: 0.5 for any constant rule, whatever the class balance. */
	balanced_accuracy: number;
	/** Matthews correlation coefficient, -1..1; 0 for a constant rule (its denominator is 0). */
	mcc: number;
}

/** An empty confusion matrix. */
export function emptyConfusion(): Confusion {
	return { tp: 0, fp: 0, tn: 0, fn: 0 };
}

/** Adds one (predicted, gold) pair to `c` in place and returns it. */
export function tally(c: Confusion, predicted: boolean, gold: boolean): Confusion {
	if (predicted && gold) c.tp++;
	else if (predicted) c.fp++;
	else if (gold) c.fn++;
	else c.tn++;
	return c;
}

const ratio = (a: number, b: number): number => (b === 0 ? 0 : a / b);

/** Derives every metric from the four counts. */
export function binaryMetrics(c: Confusion): BinaryMetrics {
	const { tp, fp, tn, fn } = c;
	const recall = ratio(tp, tp + fn);
	const specificity = ratio(tn, tn + fp);
	const precision = ratio(tp, tp + fp);
	const denominator = Math.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn));
	return {
		tp,
		fp,
		tn,
		fn,
		n: tp + fp + tn + fn,
		accuracy: ratio(tp + tn, tp + fp + tn + fn),
		recall,
		specificity,
		precision,
		f1: ratio(2 * precision * recall, precision + recall),
		balanced_accuracy: (recall + specificity) / 2,
		mcc: ratio(tp * tn - fp * fn, denominator),
	};
}
