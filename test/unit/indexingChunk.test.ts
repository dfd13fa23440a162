import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chunkFile } from '../../src/indexing/chunkFile';
import type { ChunkLimits } from '../../src/indexing/chunkTypes';
import { chunkPlanFor } from '../../src/indexing/languages';
import { GRAMMAR_FILES, wasmPath } from '../../src/indexing/treeSitter';
import { FIXTURE_WS } from '../fixtures/indexing/workspace';

// minLines 1: no merging, so each definition's own span is visible.
const FINE: ChunkLimits = { maxLines: 12, maxChars: 2400, overlapLines: 2, minLines: 1 };
const spans = async (path: string, limits = FINE) =>
	(await chunkFile(path, readFileSync(join(FIXTURE_WS, path), 'utf8'), limits)).chunks.map((c) => [
		c.startLine,
		c.endLine,
		c.kind,
		c.symbol,
	]);

describe('indexing: structure-aware chunks (tree-sitter)', () => {
	it('TypeScript: interface, class opened into methods (JSDoc included), functions, arrow functions', async () => {
		assert.deepEqual(await spans('src/cart.ts'), [
			[1, 7, 'block', null],
			[9, 13, 'class', 'CartItem'],
			[15, 17, 'class', 'ShoppingCart'], // too long for one chunk: its own lines, then each method
			[19, 27, 'method', 'ShoppingCart.addItem'],
			[29, 36, 'method', 'ShoppingCart.computeTotal'],
			[38, 41, 'method', 'ShoppingCart.receipt'],
			[42, 42, 'class', 'ShoppingCart'],
			[44, 48, 'function', 'applyDiscount'],
			[50, 50, 'function', 'region'],
		]);
	});
	it('Python: decorated class, methods of a class too long for one chunk, module function', async () => {
		assert.deepEqual(await spans('src/inventory.py'), [
			[1, 2, 'block', null],
			[5, 9, 'class', 'StockLevel'],
			[12, 13, 'class', 'Inventory'],
			[15, 16, 'method', 'Inventory.__init__'],
			[18, 22, 'method', 'Inventory.receive_shipment'],
			[24, 29, 'method', 'Inventory.reserve'],
			[32, 34, 'function', 'restock_threshold'],
		]);
	});
	it('Go, Java, Rust, C, C++, C#', async () => {
		assert.deepEqual(await spans('src/main.go'), [
			[1, 3, 'block', null],
			[5, 9, 'class', 'Order'],
			[11, 14, 'method', 'Order.Describe'],
			[16, 19, 'function', 'main'],
		]);
		assert.deepEqual(await spans('src/Billing.java'), [
			[1, 1, 'block', null],
			[3, 5, 'class', 'Billing'],
			[7, 9, 'method', 'Billing.Billing'],
			[11, 14, 'method', 'Billing.grossAmount'],
			[15, 15, 'class', 'Billing'],
		]);
		assert.deepEqual(await spans('src/shipping.rs'), [
			[1, 5, 'class', 'WeightClass'],
			[7, 9, 'class', 'Parcel'],
			[11, 16, 'class', 'Parcel'],
			[18, 23, 'function', 'shipping_rate'],
		]);
		assert.deepEqual(await spans('src/checksum.c'), [
			[1, 2, 'block', null],
			[4, 6, 'class', 'crc_state'],
			[8, 16, 'function', 'checksum_bytes'],
		]);
		assert.deepEqual(await spans('src/matrix.cpp'), [
			[1, 1, 'block', null],
			[3, 11, 'class', 'Matrix'],
			[13, 17, 'function', 'Matrix_trace'],
		]);
		assert.deepEqual(await spans('src/Notifier.cs'), [
			[1, 2, 'block', null],
			[3, 10, 'class', 'Notifier'],
			[11, 11, 'block', null],
		]);
	});
	it('merges tiny neighbours up to the maximum size, listing their symbols', async () => {
		const defaults: ChunkLimits = { maxLines: 60, maxChars: 2400, overlapLines: 5, minLines: 8 };
		assert.deepEqual(await spans('src/main.go', defaults), [[1, 19, 'class', 'Order.Describe, main']]);
		const text = ['def a():', '    return 1', '', 'def b():', '    return 2', '', 'def c():', '    return 3', ''].join(
			'\n',
		);
		const r = await chunkFile('m.py', text, { ...defaults, minLines: 3 });
		assert.deepEqual(
			r.chunks.map((c) => [c.startLine, c.endLine, c.symbol]),
			[[1, 8, 'a, b, c']],
		);
	});
	it('splits a long function into overlapping windows that keep its symbol', async () => {
		const body = Array.from({ length: 98 }, (_, i) => `    x${i} = ${i}`);
		const text = ['def long_one():', ...body, '    return x0'].join('\n');
		const r = await chunkFile('long.py', text, { maxLines: 40, maxChars: 100000, overlapLines: 5, minLines: 8 });
		assert.deepEqual(
			r.chunks.map((c) => [c.startLine, c.endLine, c.symbol]),
			[
				[1, 40, 'long_one'],
				[36, 75, 'long_one'],
				[71, 100, 'long_one'],
			],
		);
	});
	it('gives every chunk a header of path, kind and symbol, and keeps the file text as content', async () => {
		const r = await chunkFile('src/inventory.py', readFileSync(join(FIXTURE_WS, 'src/inventory.py'), 'utf8'), FINE);
		const reserve = r.chunks.find((c) => c.symbol === 'Inventory.reserve')!;
		assert.equal(reserve.header, 'src/inventory.py · method Inventory.reserve');
		assert.equal(reserve.language, 'python');
		assert.match(reserve.content, /^ {4}def reserve\(self, sku, quantity\):/);
	});
});

describe('indexing: Markdown and line windows', () => {
	it('cuts Markdown at headings and names sections by their heading path', async () => {
		assert.deepEqual(await spans('docs/guide.md'), [
			[1, 3, 'section', 'Shop guide'],
			[5, 7, 'section', 'Shop guide > Installing'],
			[9, 11, 'section', 'Shop guide > Checkout flow'],
			[13, 15, 'section', 'Shop guide > Checkout flow > Refunds'],
		]);
	});
	it('ignores # lines inside fenced code', async () => {
		const text = '# Title\n\n```sh\n# not a heading\nls\n```\n\n## Next\ntext';
		const r = await chunkFile('a.md', text, FINE);
		assert.deepEqual(
			r.chunks.map((c) => [c.startLine, c.endLine, c.symbol]),
			[
				[1, 6, 'Title'],
				[8, 9, 'Title > Next'],
			],
		);
	});
	it('windows other text with overlap, and cuts a line wider than the character limit', async () => {
		const text = Array.from({ length: 25 }, (_, i) => `line ${i + 1}`).join('\n');
		const r = await chunkFile('notes.txt', text, { maxLines: 10, maxChars: 100000, overlapLines: 2, minLines: 1 });
		assert.deepEqual(
			r.chunks.map((c) => [c.startLine, c.endLine, c.kind]),
			[
				[1, 10, 'lines'],
				[9, 18, 'lines'],
				[17, 25, 'lines'],
			],
		);
		const wide = await chunkFile('min.js.txt', 'x'.repeat(2500), {
			maxLines: 10,
			maxChars: 1000,
			overlapLines: 0,
			minLines: 1,
		});
		assert.deepEqual(
			wide.chunks.map((c) => c.content.length),
			[1000, 1000, 500],
		);
	});
	it('finds the runtime and every grammar in the installed packages (what esbuild.mjs copies to dist/wasm)', () => {
		assert.equal(GRAMMAR_FILES.length, 10);
		for (const f of ['tree-sitter.wasm', ...GRAMMAR_FILES]) assert.ok(existsSync(wasmPath(f, null)), f);
	});
	it('chooses the chunker by extension', () => {
		assert.deepEqual(chunkPlanFor('a/b.tsx'), { kind: 'code', language: 'tsx' });
		assert.deepEqual(chunkPlanFor('README.md'), { kind: 'markdown' });
		assert.deepEqual(chunkPlanFor('x.yaml'), { kind: 'lines', language: 'yaml' });
		assert.deepEqual(chunkPlanFor('Makefile'), { kind: 'lines', language: null });
	});
});
