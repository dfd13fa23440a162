import assert from 'node:assert/strict';
import { BertEncoder, longestFirst } from '../../src/models/tokenizer';
import { clsPool, l2Normalize, lengthSortedBatches, meanPool, padBatch, sigmoid } from '../../src/models/tensorMath';
import { bertBaseVocab, tinyVocab, tokenizerConfig, tokenizerJson } from '../fixtures/models/tokenizerJson';

describe('models: tensor math', () => {
	it('length-sorts and caps batches, ties in input order', () => {
		assert.deepEqual(lengthSortedBatches([3, 9, 3, 5, 1], 2), [[1, 3], [0, 2], [4]]);
		assert.deepEqual(lengthSortedBatches([], 32), []);
		assert.deepEqual(lengthSortedBatches([1, 1, 1], 0), [[0], [1], [2]]);
	});

	it('pads to the longest item with mask 0 and the pad id', () => {
		const b = padBatch(
			[
				{ ids: [5, 6, 7], typeIds: [0, 0, 1] },
				{ ids: [8], typeIds: [0] },
			],
			0,
		);
		assert.equal(b.seq, 3);
		assert.deepEqual([...b.inputIds], [5n, 6n, 7n, 8n, 0n, 0n]);
		assert.deepEqual([...b.attentionMask], [1n, 1n, 1n, 1n, 0n, 0n]);
		assert.deepEqual([...b.tokenTypeIds], [0n, 0n, 1n, 0n, 0n, 0n]);
	});

	it('mean-pools over real tokens only, then L2-normalises', () => {
		// batch 1, seq 3 (last is padding), dim 2: mean of (1,2) and (3,2) = (2,2) → (√½, √½)
		const hidden = Float32Array.from([1, 2, 3, 2, 100, 100]);
		const [v] = meanPool(hidden, 1, 3, 2, BigInt64Array.from([1n, 1n, 0n]), true);
		assert.ok(Math.abs(v[0] - Math.SQRT1_2) < 1e-6 && Math.abs(v[1] - Math.SQRT1_2) < 1e-6);
		const [raw] = meanPool(hidden, 1, 3, 2, BigInt64Array.from([1n, 1n, 0n]), false);
		assert.deepEqual([...raw], [2, 2]);
	});

	it('CLS pooling takes the first token; zero vectors stay zero', () => {
		const [v] = clsPool(Float32Array.from([3, 4, 9, 9]), 1, 2, 2, true);
		assert.deepEqual(
			[...v].map((x) => Math.round(x * 100) / 100),
			[0.6, 0.8],
		);
		assert.deepEqual([...l2Normalize(new Float32Array(3))], [0, 0, 0]);
	});

	it('sigmoid is the logistic function and stable at extremes', () => {
		assert.equal(sigmoid(0), 0.5);
		assert.ok(Math.abs(sigmoid(2) - 0.8807970779778823) < 1e-12);
		assert.ok(Math.abs(sigmoid(-2) - 0.11920292202211755) < 1e-12);
		assert.equal(sigmoid(-1000), 0);
		assert.equal(sigmoid(1000), 1);
	});
});

describe('models: BERT encoder (truncation, pairs)', () => {
	it('longest-first keeps the short side and splits ties toward the first text', () => {
		assert.deepEqual(longestFirst(3, 4, 10), [3, 4]);
		assert.deepEqual(longestFirst(2, 20, 10), [2, 8]);
		assert.deepEqual(longestFirst(20, 3, 10), [7, 3]);
		assert.deepEqual(longestFirst(20, 20, 9), [5, 4]);
		assert.deepEqual(longestFirst(6, 6, 10), [5, 5]);
	});

	it('matches the reference bert-base-uncased ids', () => {
		const enc = BertEncoder.fromJson(
			tokenizerJson(bertBaseVocab()),
			tokenizerConfig(512) as Record<string, unknown>,
			256,
		);
		assert.ok(enc.ok);
		assert.deepEqual(enc.value.encode('i like strawberries').ids, [101, 1045, 2066, 13137, 20968, 102]);
	});

	it('truncates single texts and pairs to maxTokens, keeping [CLS] and [SEP]', () => {
		const enc = BertEncoder.fromJson(tokenizerJson(tinyVocab()), tokenizerConfig(8) as Record<string, unknown>, 8);
		assert.ok(enc.ok);
		const single = enc.value.encode('a b c d e f g h i j');
		assert.equal(single.ids.length, 8);
		assert.equal(single.ids[0], 2); // [CLS]
		assert.equal(single.ids[7], 3); // [SEP]
		const pair = enc.value.encodePair('a b', 'c d e f g h i j');
		// budget 8 - 3 = 5: the query keeps its 2 tokens, the passage gets 3.
		assert.equal(pair.ids.length, 8);
		assert.deepEqual(pair.typeIds, [0, 0, 0, 0, 1, 1, 1, 1]);
		assert.deepEqual(pair.ids.filter((id) => id === 3).length, 2);
	});

	it('refuses a tokenizer without [CLS]/[SEP]', () => {
		const vocab = tinyVocab().map((t) => (t === '[CLS]' ? '[XLS]' : t));
		const json = tokenizerJson(vocab) as { added_tokens: unknown[] };
		json.added_tokens = [];
		const enc = BertEncoder.fromJson(json, tokenizerConfig(8) as Record<string, unknown>, 8);
		assert.equal(enc.ok, false);
	});
});
