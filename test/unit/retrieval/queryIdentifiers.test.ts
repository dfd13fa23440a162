/** The identifiers a turn names (the symbol arm's probes), and the arm's ranking without a store. */
import assert from 'node:assert/strict';
import { turnIdentifiers } from '../../../src/retrieval/queryIdentifiers';
import { DEFAULT_RETRIEVAL_TUNING } from '../../../src/retrieval/retrievalThresholds';
import { rankSymbolMatches } from '../../../src/retrieval/symbolArm';
import type { SymbolRow } from '../../../src/store/symbolSearch';

const pick = (text: string) =>
	turnIdentifiers(text).identifiers.map((i) => [i.raw, i.leaf, i.qualifiers.join('.'), i.strength].join('|'));

describe('turnIdentifiers', () => {
	it('snake_case, camelCase and dotted paths are code; leaves are case- and underscore-insensitive', () => {
		const ids = pick('How is send_file implemented? And res.sendFile, Context.invoke() and `get_current_context`?');
		assert.deepEqual(ids.slice(0, 4), [
			'send_file|sendfile||code',
			'res.sendFile|sendfile|res|code',
			'Context.invoke|invoke|context|code',
			'get_current_context|getcurrentcontext||code',
		]);
	});

	it('Rust and C++ paths keep their qualifiers', () => {
		assert.deepEqual(pick('what does serde_json::from_str return')[0], 'serde_json::from_str|fromstr|serdejson|code');
	});

	it('a capitalised word mid-sentence is a name, at the start of a sentence it is not', () => {
		const ids = pick('Where does the Command struct get its flags? Where is it');
		assert.ok(ids.includes('Command|command||name'), ids.join(' '));
		assert.ok(!ids.some((i) => i.startsWith('Where|')), ids.join(' '));
	});

	it('adjacent content words become one joined name (send file → sendfile); stop words break pairs', () => {
		const ids = pick('how do I send a file to the browser');
		assert.ok(!ids.some((i) => i.startsWith('send file|')), 'a stop word between them: no pair');
		const joined = pick('where is the send file helper');
		assert.ok(joined.includes('send file|sendfile||joined'), joined.join(' '));
		assert.ok(joined.includes('helper|helper||word'), joined.join(' '));
	});

	it('file names go to files, not identifiers; one entry per name', () => {
		const r = turnIdentifiers('in helpers.py, is send_file the same as send_file in src/app/views.ts?');
		assert.deepEqual(r.files, ['helpers.py', 'src/app/views.ts']);
		assert.equal(r.identifiers.filter((i) => i.leaf === 'sendfile').length, 1);
	});
});

const row = (chunk: string, path: string, def: string, kind = 'function', content = ''): SymbolRow => {
	const leaf = def.split('.').pop()!;
	return {
		chunk_pk: chunk,
		doc_id: path,
		chunk_no: 0,
		path,
		start_line: 1,
		end_line: 10,
		symbol: def,
		content,
		score: 0,
		def_name: def,
		def_kind: kind,
		def_start: 1,
		def_end: 10,
		norm_leaf: leaf.toLowerCase().replace(/_/g, ''),
		norm_name: def.toLowerCase().replace(/_/g, ''),
	};
};

describe('rankSymbolMatches', () => {
	it('the qualifier picks Context.invoke over Command.invoke; mentions come after definitions', () => {
		const ids = turnIdentifiers('what does Context.invoke do').identifiers;
		const defs = [row('1', 'core.py', 'Command.invoke', 'method'), row('2', 'core.py', 'Context.invoke', 'method')];
		const other = { ...row('3', 'testing.py', 'run'), content: 'ctx.invoke(cmd)  # Context.invoke' };
		const m = rankSymbolMatches(ids, defs, [other], DEFAULT_RETRIEVAL_TUNING);
		assert.deepEqual(
			m.map((x) => [x.row.chunk_pk, x.match]),
			[
				['2', 'definition'],
				['1', 'definition'],
				['3', 'mention'],
			],
		);
	});

	it('a plain word only counts when few definitions carry it', () => {
		const ids = turnIdentifiers('where is flatten').identifiers;
		const many = Array.from({ length: DEFAULT_RETRIEVAL_TUNING.symbol_word_max_defs + 1 }, (_, i) =>
			row(String(i), `m${i}.py`, 'flatten'),
		);
		assert.equal(rankSymbolMatches(ids, many, [], DEFAULT_RETRIEVAL_TUNING).length, 0);
		assert.equal(rankSymbolMatches(ids, many.slice(0, 2), [], DEFAULT_RETRIEVAL_TUNING).length, 2);
	});
});
