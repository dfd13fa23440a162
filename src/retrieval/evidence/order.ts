/**
 * "Lost in the middle" ordering (seed 002 R7): readers attend best to the start and the end of
 * the context, so the strongest evidence goes to both edges and the weakest to the middle.
 */

/** Reorders items given best → worst: ranks 1,3,5… from the front, then …6,4,2 at the back. */
export function edgesFirst<T>(bestFirst: readonly T[]): T[] {
	const head: T[] = [];
	const tail: T[] = [];
	bestFirst.forEach((x, i) => (i % 2 === 0 ? head : tail).push(x));
	return [...head, ...tail.reverse()];
}
