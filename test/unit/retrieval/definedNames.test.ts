/** Files ranked by the names a report mentions that they define. */
import assert from 'node:assert/strict';
import { filesByDefinedNames } from '../../../src/retrieval/definedNames';
import type { SymbolMatch } from '../../../src/retrieval/symbolArm';

let pk = 0;
function def(path: string, name: string, strength: SymbolMatch['strength'] = 'code'): SymbolMatch {
	pk++;
	return {
		row: {
			chunk_pk: String(pk),
			doc_id: path,
			chunk_no: pk,
			path,
			start_line: 1,
			end_line: 2,
			symbol: name,
			content: '',
			score: 0,
		},
		match: 'definition',
		name,
		raw: name.split('.').pop()!,
		strength,
		score: 4,
		line: 1,
	};
}

describe('filesByDefinedNames', () => {
	it('the file defining several named things outranks files that each define one', () => {
		const m = [
			def('a.py', 'bulk_create'),
			def('query.py', 'QuerySet.bulk_create'),
			def('query.py', 'QuerySet._batched_insert'),
			def('b.py', '_batched_insert'),
		];
		const files = filesByDefinedNames(m);
		assert.equal(files[0].path, 'query.py');
		assert.equal(files[0].score, 1);
		assert.deepEqual(files[0].names, ['bulk_create', '_batched_insert']);
		assert.deepEqual(
			files
				.map((f) => f.path)
				.slice(1)
				.sort(),
			['a.py', 'b.py'],
		);
	});

	it('a name defined in many files weighs 1 / files; a rare one wins over it', () => {
		const m = [def('x.py', 'get'), def('y.py', 'get'), def('z.py', 'get'), def('w.py', 'Rare')];
		const files = filesByDefinedNames(m);
		assert.equal(files[0].path, 'w.py');
		assert.ok(Math.abs(files[1].score - 1 / 3) < 1e-12);
	});

	it('two definitions of one name in one file count once; plain words and mentions do not count', () => {
		const m = [
			def('q.py', 'A.save'),
			def('q.py', 'B.save'),
			def('r.py', 'flatten', 'word'),
			{ ...def('s.py', 'save'), match: 'mention' as const },
		];
		const files = filesByDefinedNames(m);
		assert.deepEqual(
			files.map((f) => [f.path, f.score]),
			[['q.py', 1]],
		);
	});
});
