import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { seedReferenceScore } from '../../../src/cli/evalFollowup';
import { runCli } from '../../../src/cli/main';
import { captureIo } from '../../fixtures/captureIo';

const FIXTURE = resolve(__dirname, '../../fixtures/followup_small.jsonl');

const capture = () => captureIo(process.cwd());

function tempJson(value: unknown): string {
	const file = join(mkdtempSync(join(tmpdir(), 'gmem-eval-')), 'config.json');
	writeFileSync(file, JSON.stringify(value));
	return file;
}

describe('gmem eval followup', () => {
	// The fixture: 7 labelled rows (2 first turns, 5 later: 3 follow-ups, 2 stand-alone) and 2 bad lines.
	it('prints counts and metrics per rule as one JSON object, reporting bad lines on stderr', async () => {
		const c = capture();
		const code = await runCli(['eval', 'followup', FIXTURE, '--json'], c.io);
		assert.equal(code, 0);
		const e = JSON.parse(c.out());
		assert.equal(e.turns, 5);
		assert.equal(e.positives, 3);
		assert.equal(e.first_turns_skipped, 2);
		assert.equal(e.bad_lines, 2);
		assert.deepEqual(pick(e.rules['gated-memory']), { tp: 3, fp: 0, tn: 2, fn: 0 });
		assert.deepEqual(pick(e.rules['every-later-turn']), { tp: 3, fp: 2, tn: 0, fn: 0 });
		assert.deepEqual(pick(e.rules['seed-000']), { tp: 0, fp: 0, tn: 2, fn: 3 });
		assert.equal(e.rules['every-later-turn'].mcc, 0);
		assert.match(c.err(), /line 4: invalid JSON/);
		assert.match(c.err(), /line 5: missing or non-boolean "depends_on_context"/);
	});

	it('prints a table with every rule by default', async () => {
		const c = capture();
		assert.equal(await runCli(['eval', 'followup', FIXTURE], c.io), 0);
		for (const word of [
			'recall',
			'specificity',
			'precision',
			'bal.acc',
			'MCC',
			'gated-memory',
			'every-later-turn',
			'seed-000',
		]) {
			assert.ok(c.out().includes(word), `table lacks ${word}`);
		}
		assert.match(c.out(), /5 later turns \(3 follow-ups, 2 stand-alone\)/);
	});

	it('--config overrides thresholds by name and changes the outcome', async () => {
		const c = capture();
		const config = tempJson({ followup_w_active: 0.1, followup_threshold: 0.6 });
		assert.equal(await runCli(['eval', 'followup', FIXTURE, '--json', '--config', config], c.io), 0);
		const e = JSON.parse(c.out());
		assert.equal(e.followup_threshold, 0.6);
		assert.deepEqual(pick(e.rules['gated-memory']), { tp: 2, fp: 0, tn: 2, fn: 1 });
	});

	it('--config with an unknown threshold name exits 1 with a clear message', async () => {
		const c = capture();
		const code = await runCli(['eval', 'followup', FIXTURE, '--config', tempJson({ followup_w_nonsense: 1 })], c.io);
		assert.equal(code, 1);
		assert.match(c.err(), /unknown threshold "followup_w_nonsense"/);
		assert.equal(c.out(), '');
	});

	it('--half keeps only conversations whose id ends in an even or odd number', async () => {
		const c = capture();
		assert.equal(await runCli(['eval', 'followup', FIXTURE, '--json', '--half', 'even'], c.io), 0);
		const e = JSON.parse(c.out());
		assert.equal(e.turns, 2); // c2: two later turns
		assert.equal(e.half, 'even');
	});

	it('usage errors exit 1: missing file, unknown subcommand, bad --half', async () => {
		for (const argv of [
			['eval', 'followup', 'no/such/file.jsonl'],
			['eval', 'nonsense'],
			['eval'],
			['eval', 'followup', FIXTURE, '--half', 'third'],
		]) {
			const c = capture();
			assert.equal(await runCli(argv, c.io), 1, argv.join(' '));
			assert.ok(c.err().length > 0);
		}
	});
});

describe('seedReferenceScore (the comparison row)', () => {
	it('keeps the seed weights: pronoun 0.3 + continuation 0.4, capped at 1', () => {
		assert.equal(seedReferenceScore('what if it fails?', 1), 0.7);
		assert.equal(seedReferenceScore('Is it treatable?', 1), 0.3);
		assert.equal(seedReferenceScore('anything', 0), 0);
		assert.equal(seedReferenceScore('also, can you elaborate on the function, tell me more about it?', 3), 1);
	});

	it('keeps the seed flaw it is compared for: substring matching ("clarify" inside "unclarifyable")', () => {
		assert.equal(seedReferenceScore('is this unclarifyable', 1), 0.7);
	});
});

function pick(m: { tp: number; fp: number; tn: number; fn: number }): {
	tp: number;
	fp: number;
	tn: number;
	fn: number;
} {
	return { tp: m.tp, fp: m.fp, tn: m.tn, fn: m.fn };
}
