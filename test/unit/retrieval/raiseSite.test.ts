/** The raising site of a pasted error: the message's literal phrases, their chunks ranked, and whether the frames reach the raise. */
import assert from 'node:assert/strict';
import { framesReachRaise, lineOf, messagePhrases, rankRaiseSites } from '../../../src/retrieval/raiseSite';
import { raiseSitePins, type FailureEvidence } from '../../../src/retrieval/failureEvidence';
import { parseFailure } from '../../../src/retrieval/stackFrames';

describe('messagePhrases', () => {
	it('drops the substituted values and keeps the literal runs, longest first', () => {
		assert.deepEqual(messagePhrases("could not determine a constructor for the tag '!include'", 2, 4), [
			'could not determine a constructor for the tag',
		]);
		assert.deepEqual(
			messagePhrases("'1.234,5' is not a properly formatted decimal number. Did you mean '1.2345'?", 2, 4),
			['is not a properly formatted decimal number Did you mean'],
		);
	});

	it('splits at a colon, so an inlined value (Invalid Version: v1.2) does not break the phrase', () => {
		assert.deepEqual(messagePhrases('Invalid Version: v1.2', 2, 4), ['Invalid Version']);
		assert.deepEqual(messagePhrases('invalid increment argument: minorr', 2, 4), ['invalid increment argument']);
	});

	it("unwraps a KeyError's quoted repr before removing quoted values", () => {
		assert.deepEqual(messagePhrases('"Unsupported date/time field \'b\'"', 2, 4), ['Unsupported date/time field']);
	});

	it('needs minWords words with one of 4 letters or more; nothing from null or a bare value', () => {
		assert.deepEqual(messagePhrases('is not', 2, 4), []);
		assert.deepEqual(messagePhrases("unknown locale 'en_EN'", 3, 4), []);
		assert.deepEqual(messagePhrases(null, 2, 4), []);
		assert.deepEqual(messagePhrases("'x'", 1, 4), []);
	});

	it('keeps at most max phrases, without repeats', () => {
		const p = messagePhrases('alpha beta gamma: alpha beta gamma; delta epsilon zeta eta: theta iota kappa', 2, 2);
		assert.deepEqual(p, ['delta epsilon zeta eta', 'alpha beta gamma']);
	});
});

describe('rankRaiseSites', () => {
	const chunk = (chunk_pk: string, path: string, content: string, matched: number[]) => ({
		chunk_pk,
		path,
		content,
		matched,
	});

	it('a chunk that raises the message beats one that only holds it; tests and docs never count', () => {
		const phrases = ['could not determine a constructor for the tag', 'tag'];
		const ranked = rankRaiseSites(phrases, [
			chunk('1', 'docs/errors.md', 'could not determine a constructor for the tag', [0]),
			chunk('2', 'tests/test_constructor.py', 'assert "could not determine a constructor for the tag" in str(e)', [0]),
			chunk('3', 'yaml/nodes.py', 'help = "could not determine a constructor for the tag"', [0]),
			chunk(
				'4',
				'yaml/constructor.py',
				'raise ConstructorError(None, None, "could not determine a constructor for the tag %r")',
				[0],
			),
		]);
		assert.deepEqual(
			ranked.map((r) => r.chunk.chunk_pk),
			['4', '3'],
		);
		assert.equal(ranked[0].raises, true);
		assert.equal(ranked[0].score, 8 * 2 * 1.5);
		assert.equal(ranked[1].score, 8 * 2);
	});

	it('holding more phrases scores more; a repeated index counts once', () => {
		const ranked = rankRaiseSites(
			['alpha beta', 'gamma delta epsilon'],
			[chunk('a', 'x.go', 'errors.New(alphaBeta)', [0, 0]), chunk('b', 'y.go', 'x := 1', [0, 1])],
		);
		assert.deepEqual(
			ranked.map((r) => [r.chunk.chunk_pk, r.score]),
			[
				['b', 5],
				['a', 3],
			],
		);
	});
});

describe('framesReachRaise', () => {
	it("is true when the innermost frame's own line raises, false when it is a call", () => {
		const content = 'def safe_load(stream):\n    return load(stream, SafeLoader)\n    raise X()';
		assert.equal(lineOf(content, 10, 11), '    return load(stream, SafeLoader)');
		assert.equal(framesReachRaise({ content, start_line: 10, line: 11 }), false);
		assert.equal(framesReachRaise({ content, start_line: 10, line: 12 }), true);
		assert.equal(
			framesReachRaise({ content: '      throw new TypeError(`Invalid Version`)', start_line: 38, line: 38 }),
			true,
		);
	});

	it('is false without a workspace frame or outside the chunk', () => {
		assert.equal(framesReachRaise(null), false);
		assert.equal(framesReachRaise({ content: 'raise X()', start_line: 5, line: 9 }), false);
		assert.equal(lineOf('a', null, 1), null);
	});
});

describe('raiseSitePins', () => {
	const site = (chunk_pk: string) => ({
		chunk: {
			chunk_pk,
			doc_id: 'd',
			chunk_no: 0,
			path: 'a.py',
			start_line: 1,
			end_line: 9,
			symbol: null,
			content: 'raise E',
			score: 0,
			matched: [0],
		},
		score: 3,
		raises: true,
	});
	const evidence = (over: Partial<FailureEvidence>): FailureEvidence => ({
		parsed: parseFailure('E: alpha beta'),
		frames: [],
		searchText: null,
		phrases: ['alpha beta'],
		raiseSites: [site('s1'), site('s2')],
		framesReachRaise: false,
		raiseSitesLookedUp: true,
		...over,
	});

	it('pins the best site when no frame reaches the raise, at most max', () => {
		assert.deepEqual(
			raiseSitePins(evidence({}), 1).map((c) => c.chunk_pk),
			['s1'],
		);
		assert.deepEqual(
			raiseSitePins(evidence({}), 2).map((c) => c.chunk_pk),
			['s1', 's2'],
		);
		assert.deepEqual(raiseSitePins(evidence({}), 0), []);
	});

	it('pins nothing when the innermost frame raises', () => {
		assert.deepEqual(raiseSitePins(evidence({ framesReachRaise: true }), 1), []);
	});
});

describe('go test failure lines carry the error', () => {
	it("takes the message printed on the frame's line as the error, so its phrases can be searched", () => {
		const p = parseFailure(
			'--- FAIL: TestLoadConfig (0.00s)\n    config_test.go:33: decode: undecoded keys: ["server.tls_cert"]\nFAIL',
		);
		assert.equal(p.frames.length, 1);
		assert.equal(p.frames[0].path, 'config_test.go');
		assert.equal(p.errorType, 'FAIL');
		assert.equal(p.errorMessage, 'decode: undecoded keys: ["server.tls_cert"]');
		assert.deepEqual(messagePhrases(p.errorMessage, 2, 4), ['undecoded keys']);
	});
});

describe("Rust's Debug-printed error", () => {
	it('takes the quoted message out of Error("…", line: 0, column: 0)', () => {
		assert.deepEqual(messagePhrases('Error("key must be a string", line: 0, column: 0)', 2, 4), [
			'key must be a string',
		]);
	});
});

describe('rankRaiseSites: the phrase as written beats the words of an identifier', () => {
	it('error.rs writes "key must be a string"; de.rs only raises ErrorCode::KeyMustBeAString', () => {
		const phrases = ['key must be a string'];
		const ranked = rankRaiseSites(phrases, [
			{
				chunk_pk: 'de',
				path: 'src/de.rs',
				content: 'return Err(self.peek_error(ErrorCode::KeyMustBeAString));',
				matched: [0],
			},
			{
				chunk_pk: 'err',
				path: 'src/error.rs',
				content: 'ErrorCode::KeyMustBeAString => f.write_str("key must be a string"),',
				matched: [0],
			},
		]);
		assert.deepEqual(
			ranked.map((r) => [r.chunk.chunk_pk, r.score]),
			[
				['err', 5 * 2],
				['de', 5 * 1.5],
			],
		);
	});
});
