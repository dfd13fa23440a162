/**
 * Multi-class confusion matrices (answer path, trigger, tier sets): gold label × predicted label
 * counts, accuracy, and per-class recall and precision. Pure.
 */

/** Counts keyed gold → predicted → n; `labels` lists every class seen, first-seen order after `order`. */
export interface MultiConfusion {
	labels: string[];
	counts: Record<string, Record<string, number>>;
	n: number;
	correct: number;
}

/** An empty matrix; `order` fixes the display order of known classes (others follow as seen). */
export function emptyMultiConfusion(order: readonly string[] = []): MultiConfusion {
	return { labels: [...order], counts: {}, n: 0, correct: 0 };
}

/** Adds one (gold, predicted) pair in place and returns the matrix. */
export function tallyMulti(m: MultiConfusion, gold: string, predicted: string): MultiConfusion {
	for (const label of [gold, predicted]) if (!m.labels.includes(label)) m.labels.push(label);
	const row = (m.counts[gold] ??= {});
	row[predicted] = (row[predicted] ?? 0) + 1;
	m.n++;
	if (gold === predicted) m.correct++;
	return m;
}

/** The count of turns labelled `gold` and predicted `predicted`. */
export function cell(m: MultiConfusion, gold: string, predicted: string): number {
	return m.counts[gold]?.[predicted] ?? 0;
}

/** Per-class figures; a ratio with a zero denominator is 0. */
export interface ClassMetrics {
	label: string;
	/** Turns whose gold label is this class. */
	support: number;
	recall: number;
	precision: number;
}

/** Accuracy and per-class recall/precision (classes in `labels` order). */
export function multiMetrics(m: MultiConfusion): { accuracy: number; classes: ClassMetrics[] } {
	const classes = m.labels.map((label) => {
		const support = Object.values(m.counts[label] ?? {}).reduce((a, b) => a + b, 0);
		const predicted = m.labels.reduce((a, g) => a + cell(m, g, label), 0);
		const hit = cell(m, label, label);
		return { label, support, recall: support ? hit / support : 0, precision: predicted ? hit / predicted : 0 };
	});
	return { accuracy: m.n ? m.correct / m.n : 0, classes };
}
