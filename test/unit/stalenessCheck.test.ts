/** The pure staleness check: each verdict from an anchor and the chunks as they are now. */
import assert from 'node:assert/strict';
import {
	checkAnchor,
	isStale,
	memoryVerdict,
	symbolsOf,
	type CodeAnchor,
	type CurrentChunk,
} from '../../src/retrieval/stalenessCheck';

const anchor: CodeAnchor = { path: 'src/a.ts', symbol: 'parseConfig', startLine: 10, endLine: 24, contentHash: 'h1' };
const chunk = (over: Partial<CurrentChunk>): CurrentChunk => ({
	path: 'src/a.ts',
	symbol: 'parseConfig',
	startLine: 10,
	endLine: 24,
	contentHash: 'h1',
	...over,
});

describe('staleness check', () => {
	it('current: same file, same lines, same hash', () => {
		const c = checkAnchor(anchor, [chunk({})]);
		assert.equal(c.status, 'current');
		assert.equal(isStale(c.status), false);
	});

	it('moved: same hash at other lines of the file, or in another file (re-anchored there)', () => {
		const down = checkAnchor(anchor, [chunk({ startLine: 30, endLine: 44 })]);
		assert.equal(down.status, 'moved');
		assert.equal(down.now?.startLine, 30);
		assert.equal(down.reason, 'src/a.ts:10-24 (parseConfig) moved to src/a.ts:30-44 (parseConfig) (re-anchored)');
		const renamedFile = checkAnchor(anchor, [chunk({ path: 'src/config/parse.ts' })]);
		assert.equal(renamedFile.status, 'moved');
		assert.equal(renamedFile.now?.path, 'src/config/parse.ts');
		// The same file wins over another file holding an identical copy.
		const both = checkAnchor(anchor, [chunk({ path: 'src/copy.ts' }), chunk({ startLine: 50, endLine: 64 })]);
		assert.equal(both.now?.path, 'src/a.ts');
	});

	it('changed: the symbol is still in the file but its content differs', () => {
		const c = checkAnchor(anchor, [chunk({ contentHash: 'h2' })]);
		assert.equal(c.status, 'changed');
		assert.ok(isStale(c.status));
		assert.equal(c.reason, 'src/a.ts:10-24 (parseConfig) changed since the memory was written');
	});

	it('gone: renamed symbol, or the file no longer indexed', () => {
		const renamed = checkAnchor(anchor, [chunk({ symbol: 'parseSettings', contentHash: 'h3' })]);
		assert.equal(renamed.status, 'gone');
		assert.equal(renamed.reason, 'parseConfig is no longer in src/a.ts (renamed or removed)');
		const deleted = checkAnchor(anchor, [chunk({ path: 'src/other.ts', symbol: 'other', contentHash: 'h9' })]);
		assert.equal(deleted.status, 'gone');
		assert.equal(deleted.reason, 'src/a.ts is no longer in the index (deleted, moved or excluded)');
		assert.equal(checkAnchor(anchor, []).status, 'gone');
	});

	it('merged chunks list several symbols: each named symbol must still be there', () => {
		const merged: CodeAnchor = { ...anchor, symbol: 'parseConfig, loadConfig' };
		assert.deepEqual(symbolsOf(merged.symbol), ['parseConfig', 'loadConfig']);
		assert.equal(
			checkAnchor(merged, [chunk({ symbol: 'parseConfig, loadConfig', contentHash: 'h2' })]).status,
			'changed',
		);
		const half = checkAnchor(merged, [chunk({ symbol: 'parseConfig, loadSettings', contentHash: 'h2' })]);
		assert.equal(half.status, 'gone');
		assert.match(half.reason, /^loadConfig is no longer in src\/a\.ts/);
	});

	it('no symbol: the chunk now covering the cited lines decides; no hash: presence only', () => {
		const plain: CodeAnchor = { path: 'README.md', symbol: null, startLine: 5, endLine: 9, contentHash: 'r1' };
		assert.equal(
			checkAnchor(plain, [{ path: 'README.md', symbol: null, startLine: 1, endLine: 12, contentHash: 'r2' }]).status,
			'changed',
		);
		assert.equal(
			checkAnchor(plain, [{ path: 'README.md', symbol: null, startLine: 1, endLine: 3, contentHash: 'r2' }]).status,
			'gone',
		);
		const noHash: CodeAnchor = { ...plain, contentHash: null };
		assert.equal(
			checkAnchor(noHash, [{ path: 'README.md', symbol: null, startLine: 1, endLine: 12, contentHash: 'r2' }]).status,
			'current',
		);
	});

	it('a memory is stale if any anchor is; moved if one moved and none is stale', () => {
		const v = (...s: ('current' | 'moved' | 'changed' | 'gone')[]) =>
			memoryVerdict(s.map((status) => ({ status, now: null, reason: '' })));
		assert.equal(v('current', 'current'), 'current');
		assert.equal(v('current', 'moved'), 'moved');
		assert.equal(v('moved', 'changed'), 'changed');
		assert.equal(v('changed', 'gone'), 'gone');
	});
});
