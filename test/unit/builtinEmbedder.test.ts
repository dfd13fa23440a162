import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILTIN_EMBEDDER_ID, builtinModelDir, loadBuiltinEmbedder } from '../../src/models/builtinEmbedder';
import { encodeStatic, fnv1a32, staticWords } from '../../src/models/staticTokenizer';

/** Written by training/export.py (the Python tokenizer and table), never by the code under test. */
interface Case {
	text: string;
	words: string[];
	ids: number[];
	weights: number[];
	vector_head: number[];
}
const fixture = JSON.parse(
	readFileSync(join(__dirname, '..', 'fixtures', 'builtin', 'tokenizer_cases.json'), 'utf8'),
) as { model_id: string; cases: Case[] };
const modelDir = builtinModelDir();
const config = JSON.parse(readFileSync(join(modelDir, 'config.json'), 'utf8')) as {
	vocab_size: number;
	buckets: number;
	ngram: number;
	max_word_chars: number;
	max_words: number;
};
const vocab = new Map(
	readFileSync(join(modelDir, 'vocab.txt'), 'utf8')
		.trimEnd()
		.split('\n')
		.map((w, i) => [w, i] as const),
);
const spec = { vocab, buckets: config.buckets, ngram: config.ngram, maxWordChars: config.max_word_chars };

const cosine = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

describe('models: built-in static embedder', () => {
	it('the fixture is for the shipped model and covers misspellings and non-ASCII', () => {
		assert.equal(fixture.model_id, BUILTIN_EMBEDDER_ID);
		assert.ok(fixture.cases.length >= 6);
		assert.ok(
			fixture.cases.some((c) => c.weights.some((w) => w < 1)),
			'some words go through the n-gram fallback',
		);
	});

	it('splits words exactly as the Python tokenizer did', () => {
		for (const c of fixture.cases) assert.deepEqual(staticWords(c.text), c.words, c.text);
	});

	it('gives the same token ids and weights as the Python tokenizer', () => {
		for (const c of fixture.cases) {
			const got = encodeStatic(c.text, spec, config.max_words);
			assert.deepEqual(got.ids, c.ids, c.text);
			got.weights.forEach((w, i) => assert.ok(Math.abs(w - c.weights[i]!) < 1e-7, `${c.text}: weight ${i}`));
		}
	});

	it('FNV-1a matches the published test vectors', () => {
		assert.equal(fnv1a32(''), 0x811c9dc5);
		assert.equal(fnv1a32('a'), 0xe40c292c);
		assert.equal(fnv1a32('foobar'), 0xbf9cf968);
	});

	it('loads the shipped table and reproduces the Python vectors', async () => {
		const e = await loadBuiltinEmbedder();
		assert.equal(e.id, BUILTIN_EMBEDDER_ID);
		assert.equal(e.dim, 384);
		assert.equal(e.semantic, true);
		const vs = await e.embed(fixture.cases.map((c) => c.text));
		for (const [i, c] of fixture.cases.entries()) {
			const v = vs[i]!;
			assert.equal(v.length, 384);
			c.vector_head.forEach((x, j) =>
				assert.ok(Math.abs(v[j]! - x) < 1e-5, `${JSON.stringify(c.text)}[${j}]: ${v[j]} vs ${x}`),
			);
			const norm = Math.sqrt(cosine(v, v));
			if (c.ids.length === 0) assert.equal(norm, 0, 'no tokens: the zero vector');
			else assert.ok(Math.abs(norm - 1) < 1e-5, 'unit length');
		}
	});

	it('a misspelt word lands nearer its correct spelling than an unrelated word', async () => {
		const e = await loadBuiltinEmbedder();
		const [typo, right, other] = await e.embed([
			'python sort dictinaries by value',
			'python sort dictionaries by value',
			'python open a socket connection',
		]);
		assert.ok(
			cosine(typo!, right!) > cosine(typo!, other!) + 0.1,
			`${cosine(typo!, right!)} vs ${cosine(typo!, other!)}`,
		);
	});

	it('ranks the matching snippet first for plain questions', async () => {
		const e = await loadBuiltinEmbedder();
		const code = [
			'def read_json(path):\n    with open(path) as fh:\n        return json.load(fh)',
			'def remove_dir(path):\n    shutil.rmtree(path, ignore_errors=True)',
			'def mean(xs):\n    return sum(xs) / len(xs)',
		];
		const queries = [
			'how to load a json file in python',
			'python delete folder recursively',
			'calculate average of a list',
		];
		const cv = await e.embed(code);
		const qv = await e.embed(queries);
		for (const [i, q] of qv.entries()) {
			const best = cv.map((c) => cosine(q, c)).reduce((b, s, j, all) => (s > all[b]! ? j : b), 0);
			assert.equal(best, i, queries[i]);
		}
	});

	describe('bad model files give a clear error', () => {
		let dir: string;
		beforeEach(() => {
			dir = mkdtempSync(join(tmpdir(), 'gmem-builtin-'));
			for (const f of ['config.json', 'vocab.txt', 'table.bin']) copyFileSync(join(modelDir, f), join(dir, f));
		});
		afterEach(() => rmSync(dir, { recursive: true, force: true }));

		it('missing file', async () => {
			rmSync(join(dir, 'vocab.txt'));
			await assert.rejects(loadBuiltinEmbedder(dir), /cannot read .*vocab\.txt/);
		});
		it('truncated table', async () => {
			const t = readFileSync(join(dir, 'table.bin'));
			writeFileSync(join(dir, 'table.bin'), t.subarray(0, t.length - 4));
			await assert.rejects(loadBuiltinEmbedder(dir), /table\.bin is \d+ bytes, expected \d+/);
		});
		it('corrupted table', async () => {
			const t = readFileSync(join(dir, 'table.bin'));
			t[0] = (t[0]! + 1) % 256;
			writeFileSync(join(dir, 'table.bin'), t);
			await assert.rejects(loadBuiltinEmbedder(dir), /SHA-256/);
		});
		it('another model id', async () => {
			const c = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as Record<string, unknown>;
			writeFileSync(join(dir, 'config.json'), JSON.stringify({ ...c, id: 'gmem-static-code-v0' }));
			await assert.rejects(loadBuiltinEmbedder(dir), /id is "gmem-static-code-v0"/);
		});
		it('not JSON', async () => {
			writeFileSync(join(dir, 'config.json'), '{');
			await assert.rejects(loadBuiltinEmbedder(dir), /config\.json is not JSON/);
		});
	});
});
