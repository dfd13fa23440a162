/** Which probed names a chunk's text mentions (the symbol arm's mention pass), and the dedupe shingle cache. */
import assert from 'node:assert/strict';
import { mentionedLeaves, rankSymbolMatches } from '../../../src/retrieval/symbolArm';
import { turnIdentifiers } from '../../../src/retrieval/queryIdentifiers';
import { DEFAULT_RETRIEVAL_TUNING } from '../../../src/retrieval/retrievalThresholds';
import { DuplicateFinder } from '../../../src/retrieval/evidence/dedupe';
import type { EvidenceCandidate } from '../../../src/retrieval/evidence/types';
import type { ArmRow } from '../../../src/store/searchQueries';

const chunk = (chunk_pk: string, content: string): ArmRow => ({
	chunk_pk,
	doc_id: `d${chunk_pk}`,
	chunk_no: 0,
	path: `m${chunk_pk}.py`,
	start_line: 1,
	end_line: 5,
	symbol: null,
	content,
	score: 1,
});

describe('mentionedLeaves', () => {
	it('finds a leaf written in any case or with underscores and $, as whole code words only', () => {
		const leaves = new Set(['sendfile', 'parsearg']);
		assert.deepEqual([...mentionedLeaves('res.send_File(path)', leaves)], ['sendfile']);
		assert.deepEqual([...mentionedLeaves('x = $send$file + parse_arg()', leaves)].sort(), ['parsearg', 'sendfile']);
		// inside a longer word, or split by a non-word character, it is no mention
		assert.deepEqual([...mentionedLeaves('resendfile(); parse-arg', leaves)], []);
		assert.deepEqual([...mentionedLeaves('sendfiles', leaves)], []);
		assert.deepEqual([...mentionedLeaves('', leaves)], []);
	});

	it('a leaf that is a substring of the flattened text but of no word is not found', () => {
		// "send file" flattens to "sendfile" only with the space; the word scan decides
		assert.deepEqual([...mentionedLeaves('send_ file', new Set(['sendfile']))], []);
		assert.deepEqual([...mentionedLeaves('se_nd_fi_le', new Set(['sendfile']))], ['sendfile']);
	});
});

describe('rankSymbolMatches mentions', () => {
	it('a chunk found by two arms is one mention, named by the first identifier it mentions', () => {
		const ids = turnIdentifiers('why does sendFile call parse_arg?').identifiers;
		const a = chunk('1', 'def helper():\n    return parse_arg(send_file(x))');
		const b = chunk('2', 'nothing here');
		const m = rankSymbolMatches(ids, [], [a, b, a], DEFAULT_RETRIEVAL_TUNING);
		assert.deepEqual(
			m.map((x) => [x.row.chunk_pk, x.match, x.name]),
			[['1', 'mention', ids.find((i) => i.leaf === 'sendfile' || i.leaf === 'parsearg')!.raw]],
		);
	});
});

describe('DuplicateFinder', () => {
	const cand = (id: string, text: string, path: string): EvidenceCandidate =>
		({
			hit: { chunk_id: id, path, start_line: 1, end_line: 3 },
			tier: 'workspace',
			text,
		}) as unknown as EvidenceCandidate;

	it('finds a near-duplicate of a kept chunk, and keeps what it tested without re-reading it wrongly', () => {
		const f = new DuplicateFinder(0.8, 0.5);
		const a = cand('a', 'one two three four five six', 'a.py');
		const b = cand('b', 'one two three four five six', 'b.py');
		const c = cand('c', 'seven eight nine ten eleven', 'c.py');
		assert.equal(f.duplicateOf(a), null);
		f.keep(a);
		assert.match(f.duplicateOf(b) ?? '', /near-duplicate of a/);
		assert.equal(f.duplicateOf(c), null);
		// keep() after testing another candidate still records the kept one's own shingles
		f.keep(c);
		assert.match(f.duplicateOf(cand('d', 'seven eight nine ten eleven', 'd.py')) ?? '', /near-duplicate of c/);
		assert.equal(f.duplicateOf(cand('e', 'twelve thirteen fourteen', 'e.py')), null);
	});
});
