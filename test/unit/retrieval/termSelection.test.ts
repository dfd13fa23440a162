/**
 * Long-query term selection by the index's statistics (queryTerms.ts selectByWeight,
 * termSelection.ts selectQueryTerms): over the cap, df-0 terms go and the heaviest (qtf × idf) stay
 * in their original order; at or under the cap the terms are salientTerms' and the store is never
 * asked.
 */
import assert from 'node:assert/strict';
import { DEFAULT_THRESHOLDS } from '../../../src/core/thresholds';
import { allSalientTerms, queryTermCounts, salientTerms, selectByWeight } from '../../../src/retrieval/queryTerms';
import { selectQueryTerms } from '../../../src/retrieval/termSelection';
import type { Queryable } from '../../../src/store/queryable';

describe('selectByWeight', () => {
	it('at or under the cap returns every term unchanged, weight 0 included', () => {
		assert.deepEqual(selectByWeight(['a', 'b', 'c'], [0, 5, 0], 3), ['a', 'b', 'c']);
		assert.deepEqual(selectByWeight(['a', 'b'], [0, 0], 3), ['a', 'b']);
	});

	it('over the cap drops weight-0 terms and keeps the heaviest, in the original order', () => {
		// weights: a 0.5, b 0, c 4, d 2, e 6 — cap 3 keeps e, c, d, printed as c d e.
		assert.deepEqual(selectByWeight(['a', 'b', 'c', 'd', 'e'], [0.5, 0, 4, 2, 6], 3), ['c', 'd', 'e']);
	});

	it('fewer present terms than the cap: only the present ones', () => {
		assert.deepEqual(selectByWeight(['x', 'y', 'z', 'w'], [0, 4, 0, 9], 3), ['y', 'w']);
	});

	it('equal weight keeps the earlier term', () => {
		assert.deepEqual(selectByWeight(['p', 'q', 'r', 's'], [3, 3, 3, 5], 2), ['p', 's']);
	});

	it('when no term occurs at all, the first cap terms (nothing can match either way)', () => {
		assert.deepEqual(selectByWeight(['p', 'q', 'r'], [0, 0, 0], 2), ['p', 'q']);
	});
});

describe('queryTermCounts', () => {
	it('counts each token case-insensitively; a dotted name is one token', () => {
		const c = queryTermCounts('Figure DPI doubles: figure.dpi is 200, then the figure dpi is 400');
		assert.equal(c.get('figure'), 2);
		assert.equal(c.get('dpi'), 2);
		assert.equal(c.get('figure.dpi'), 1);
		assert.equal(c.get('400'), 1);
		assert.equal(c.get('nothing'), undefined);
	});
});

describe('allSalientTerms / salientTerms', () => {
	it('salientTerms is the capped prefix of allSalientTerms: compound terms first, then words', () => {
		const q = 'Why does render_page fail in Layout.draw when margins are zero';
		assert.deepEqual(allSalientTerms(q), ['render_page', 'Layout.draw', 'fail', 'margins', 'zero']);
		assert.deepEqual(salientTerms(q, 3), ['render_page', 'Layout.draw', 'fail']);
	});
});

describe('selectQueryTerms', () => {
	// A store that fails the test if it is asked anything.
	const noStore: Queryable = new Proxy({} as Queryable, {
		get(_t, prop) {
			if (prop === 'then') return undefined;
			return () => {
				throw new Error(`the store was used (${String(prop)}) for a query at or under the cap`);
			};
		},
	});
	const scope = { tier: 'workspace' as const, workspaceIds: null };

	it('at or under the cap: salientTerms, no store access', async () => {
		const words = Array.from({ length: 32 }, (_, i) => `word${i}`).join(' ');
		assert.deepEqual(await selectQueryTerms(noStore, scope, words, DEFAULT_THRESHOLDS), salientTerms(words, 32));
		assert.deepEqual(await selectQueryTerms(noStore, scope, 'where is parse_args defined', DEFAULT_THRESHOLDS), [
			'parse_args',
			'defined',
		]);
	});

	it('over the cap: one lookup of at most fts_term_lookup_max terms; qtf × idf picks the kept ones', async () => {
		const seen: unknown[][] = [];
		// N 100 chunks; by position: getUserName df 0, alpha df 50, gamma df 0, delta df 5.
		const dfOf = [0, 50, 0, 5];
		const db = {
			query: async (_sql: string, params: unknown[]) => {
				seen.push(params);
				return (params[2] as string[]).map((_, i) => ({ i: i + 1, df: dfOf[i], n: 100 }));
			},
		} as unknown as Queryable;
		const t = { fts_max_query_terms: 1, fts_term_lookup_max: 4 };
		const once = 'alpha getUserName gamma delta epsilon';
		assert.deepEqual(await selectQueryTerms(db, scope, once, t), ['delta']);
		assert.equal(seen.length, 1, 'one statement');
		// Salient order: getUserName (compound) first, then the words; only the first four are looked up.
		assert.deepEqual(seen[0][2], ['getUserName get user name', 'alpha', 'gamma', 'delta']);
		// idf(alpha) = ln(1 + 50.5/50.5) = 0.69, idf(delta) = ln(1 + 95.5/5.5) = 2.91: said five times,
		// alpha weighs 3.47 and takes the one slot.
		const often = `${once} alpha ALPHA alpha Alpha`;
		assert.deepEqual(await selectQueryTerms(db, scope, often, t), ['alpha']);
	});
});
