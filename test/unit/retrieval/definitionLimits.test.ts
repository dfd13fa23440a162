/**
 * The symbol arm reads at most symbol_word_max_defs + 1 definitions for a leaf probed only as a
 * word (or joined words): rankSymbolMatches drops such a leaf once it has more than
 * symbol_word_max_defs, so the ranking from the shorter read is the ranking from the full one.
 */
import assert from 'node:assert/strict';
import type { QueryIdentifier } from '../../../src/retrieval/queryIdentifiers';
import { DEFAULT_RETRIEVAL_TUNING } from '../../../src/retrieval/retrievalThresholds';
import { definitionLimits, rankSymbolMatches } from '../../../src/retrieval/symbolArm';
import type { SymbolRow } from '../../../src/store/symbolSearch';

const t = DEFAULT_RETRIEVAL_TUNING;
const id = (leaf: string, strength: QueryIdentifier['strength']): QueryIdentifier =>
	({ raw: leaf, leaf, strength, qualifiers: [] }) as unknown as QueryIdentifier;

function defs(leaf: string, n: number): SymbolRow[] {
	return Array.from({ length: n }, (_, i) => ({
		chunk_pk: `${leaf}${i}`,
		doc_id: `src/${leaf}${i}.py`,
		chunk_no: 0,
		path: `src/${leaf}${i}.py`,
		start_line: 1,
		end_line: 9,
		symbol: leaf,
		content: `def ${leaf}(): pass`,
		score: 0,
		def_name: leaf,
		def_kind: 'function',
		def_start: 1,
		def_end: 9,
		norm_leaf: leaf,
		norm_name: leaf,
	}));
}

describe('symbol arm: definitions read per leaf', () => {
	it('reads symbol_word_max_defs + 1 for a word, symbol_defs_per_name for a name, the larger for both', () => {
		assert.ok(t.symbol_word_max_defs + 1 < t.symbol_defs_per_name, 'the defaults make the cap matter');
		const limits = definitionLimits(
			[id('get', 'word'), id('sendfile', 'code'), id('run', 'joined'), id('get', 'name')],
			t,
		);
		assert.deepEqual(
			[...limits],
			[
				['get', t.symbol_defs_per_name],
				['sendfile', t.symbol_defs_per_name],
				['run', t.symbol_word_max_defs + 1],
			],
		);
		assert.equal(
			definitionLimits([id('x', 'word')], { ...t, symbol_word_max_defs: 50 }).get('x'),
			t.symbol_defs_per_name,
		);
	});

	it('ranks a word leaf the same from the capped read as from the full one', () => {
		const ids = [id('get', 'word'), id('load', 'word')];
		const cap = definitionLimits(ids, t).get('get')!;
		for (const n of [1, t.symbol_word_max_defs, t.symbol_word_max_defs + 1, t.symbol_defs_per_name]) {
			const full = [...defs('get', n), ...defs('load', 2)];
			const capped = [...defs('get', Math.min(n, cap)), ...defs('load', 2)];
			assert.deepEqual(rankSymbolMatches(ids, capped, [], t), rankSymbolMatches(ids, full, [], t), `${n} definitions`);
		}
	});
});
