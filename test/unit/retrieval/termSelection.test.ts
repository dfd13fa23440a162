/**
 * Long-query term selection by document frequency (queryTerms.ts selectByDocFrequency,
 * termSelection.ts selectQueryTerms): over the cap, df-0 terms go and the rarest stay in their
 * original order; at or under the cap the terms are salientTerms' and the store is never asked.
 */
import assert from 'node:assert/strict';
import { DEFAULT_THRESHOLDS } from '../../../src/core/thresholds';
import { allSalientTerms, salientTerms, selectByDocFrequency } from '../../../src/retrieval/queryTerms';
import { selectQueryTerms } from '../../../src/retrieval/termSelection';
import type { Queryable } from '../../../src/store/queryable';

describe('selectByDocFrequency', () => {
	it('at or under the cap returns every term unchanged, df 0 included', () => {
		assert.deepEqual(selectByDocFrequency(['a', 'b', 'c'], [0, 5, 0], 3), ['a', 'b', 'c']);
		assert.deepEqual(selectByDocFrequency(['a', 'b'], [0, 0], 3), ['a', 'b']);
	});

	it('over the cap drops df-0 terms and keeps the rarest, in the original order', () => {
		// dfs: a 50, b 0, c 2, d 7, e 1 — cap 3 keeps e (1), c (2), d (7), printed as c d e.
		assert.deepEqual(selectByDocFrequency(['a', 'b', 'c', 'd', 'e'], [50, 0, 2, 7, 1], 3), ['c', 'd', 'e']);
	});

	it('fewer present terms than the cap: only the present ones', () => {
		assert.deepEqual(selectByDocFrequency(['x', 'y', 'z', 'w'], [0, 4, 0, 9], 3), ['y', 'w']);
	});

	it('equal df keeps the earlier term', () => {
		assert.deepEqual(selectByDocFrequency(['p', 'q', 'r', 's'], [3, 3, 3, 1], 2), ['p', 's']);
	});

	it('when no term occurs at all, the first cap terms (nothing can match either way)', () => {
		assert.deepEqual(selectByDocFrequency(['p', 'q', 'r'], [0, 0, 0], 2), ['p', 'q']);
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

	it('over the cap: looks up at most fts_term_lookup_max terms, each as the arm searches it', async () => {
		const seen: unknown[][] = [];
		const db = {
			query: async (_sql: string, params: unknown[]) => {
				seen.push(params);
				// df by position: only the 2nd and 4th looked-up terms occur.
				return (params[2] as string[]).map((_, i) => ({ i: i + 1, df: i === 1 ? 9 : i === 3 ? 2 : 0 }));
			},
		} as unknown as Queryable;
		const t = { fts_max_query_terms: 2, fts_term_lookup_max: 4 };
		const got = await selectQueryTerms(db, scope, 'alpha getUserName gamma delta epsilon', t);
		assert.equal(seen.length, 1, 'one statement');
		// Salient order: getUserName (compound) first, then the words; only the first four are looked up.
		assert.deepEqual(seen[0][2], ['getUserName get user name', 'alpha', 'gamma', 'delta']);
		assert.deepEqual(got, ['alpha', 'delta']);
	});
});
