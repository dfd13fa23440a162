import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CliIo } from '../../../src/cli/cliTypes';
import { runCli } from '../../../src/cli/main';

interface Captured {
	io: CliIo;
	out: string[];
	err: string[];
}

function capture(stdinLines: string[] = [], cwd = process.cwd()): Captured {
	const out: string[] = [];
	const err: string[] = [];
	const io: CliIo = {
		stdout: (t) => void out.push(t),
		stderr: (t) => void err.push(t),
		readStdin: async function* () {
			yield* stdinLines;
		},
		env: {},
		cwd,
	};
	return { io, out, err };
}

const lines = (c: Captured) =>
	c.out
		.join('')
		.split('\n')
		.filter((l) => l.trim())
		.map((l) => JSON.parse(l));

describe('gmem gate', () => {
	it('prints one JSON line per input line, in the contract shape', async () => {
		const c = capture([
			JSON.stringify({ id: 'q1', history: [], utterance: 'Can you keep answers shorter from now on?' }),
			JSON.stringify({
				id: 'q2',
				history: ['how is the cache keyed?', { role: 'assistant', content: 'by hash' }],
				utterance: 'Where do I work and what should I not eat?',
			}),
		]);
		assert.equal(await runCli(['gate'], c.io), 0);
		const [a, b] = lines(c);
		assert.deepEqual(Object.keys(a), [
			'id',
			'followup',
			'trigger',
			'intent',
			'mode',
			'path',
			'retrieve',
			'tiers',
			'write',
			'route',
			'policy',
			'trace',
		]);
		assert.equal(a.id, 'q1');
		assert.equal(a.trigger, 'instruction');
		assert.equal(a.retrieve, false);
		assert.deepEqual(a.write, ['profile']);
		assert.deepEqual(Object.keys(a.followup), ['score', 'is_followup', 'signals']);
		assert.equal(b.id, 'q2');
		assert.equal(b.trigger, 'question');
		assert.deepEqual(b.tiers, ['profile']);
		assert.equal(b.trace.turn_id, 'q2');
	});

	it('a bad line gives an error object with its line number and processing continues', async () => {
		const c = capture([
			'{"id": "ok1", "history": [], "utterance": "hi"}',
			'this is not json',
			'',
			'{"id": "bad2", "history": [], "utterance": 42}',
			'{"id": 7, "history": [{"role": "system", "content": "x"}], "utterance": "hi"}',
			'["an", "array"]',
			'{"id": "ok2", "history": ["fix the login"], "utterance": "still not working"}',
		]);
		assert.equal(await runCli(['gate'], c.io), 0);
		const out = lines(c);
		assert.equal(out.length, 6);
		assert.equal(out[0].id, 'ok1');
		assert.deepEqual(Object.keys(out[1]), ['id', 'line', 'error']);
		assert.equal(out[1].id, null);
		assert.equal(out[1].line, 2);
		assert.equal(out[2].id, 'bad2');
		assert.equal(out[2].line, 4);
		assert.match(out[2].error, /utterance/);
		assert.equal(out[3].id, 7);
		assert.match(out[3].error, /history\[0\]/);
		assert.equal(out[4].line, 6);
		assert.equal(out[5].id, 'ok2');
		assert.equal(out[5].mode, 'frustration_recovery');
	});

	it('passes context through as TurnContext', async () => {
		const c = capture([
			JSON.stringify({
				id: 'r',
				history: [],
				utterance: 'how does the indexer handle symlinks?',
				context: { restricted: true },
			}),
		]);
		await runCli(['gate'], c.io);
		const [r] = lines(c);
		assert.equal(r.retrieve, false);
		assert.equal(r.route, 'restricted');
	});

	it('rejects a malformed context on that line only', async () => {
		const c = capture([JSON.stringify({ id: 'c', history: [], utterance: 'hi', context: { restricted: 'yes' } })]);
		assert.equal(await runCli(['gate'], c.io), 0);
		assert.match(lines(c)[0].error, /context.restricted/);
	});

	it('reads --in FILE and applies --config overrides', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'gmem-gate-'));
		writeFileSync(
			join(dir, 'turns.jsonl'),
			JSON.stringify({ id: 'w', history: [], utterance: 'where is parseConfig defined?' }) + '\n',
		);
		writeFileSync(join(dir, 'cfg.json'), JSON.stringify({ rag_k: 7, floor_workspace_question: 0.2 }));
		const c = capture([], dir);
		assert.equal(await runCli(['gate', '--in', 'turns.jsonl', '--config', 'cfg.json'], c.io), 0);
		const [r] = lines(c);
		assert.equal(r.policy.rag_k, 7);
		assert.equal(r.policy.rag_min_similarity, 0.2);
	});

	it('decides every line of the coding fixture (extra keys such as "expect" are ignored)', async () => {
		const fixture = join(__dirname, '../../fixtures/gate_coding.jsonl');
		const ids = readFileSync(fixture, 'utf8')
			.split('\n')
			.filter((l) => l.trim())
			.map((l) => JSON.parse(l).id);
		const c = capture();
		assert.equal(await runCli(['gate', '--in', fixture], c.io), 0);
		const out = lines(c);
		assert.deepEqual(
			out.map((o) => o.id),
			ids,
		);
		for (const o of out) {
			assert.equal(o.error, undefined, o.id);
			assert.equal(o.retrieve, o.tiers.length > 0, o.id);
		}
	});

	it('an unknown threshold name in --config exits 1', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'gmem-gate-'));
		writeFileSync(join(dir, 'cfg.json'), JSON.stringify({ rag_kk: 7 }));
		const c = capture(['{"id":"x","history":[],"utterance":"hi"}'], dir);
		assert.equal(await runCli(['gate', '--config', 'cfg.json'], c.io), 1);
		assert.match(c.err.join(''), /unknown threshold "rag_kk"/);
		assert.equal(c.out.length, 0);
	});

	it('a missing --in file or an unknown flag exits 1', async () => {
		const c = capture();
		assert.equal(await runCli(['gate', '--in', 'does-not-exist.jsonl'], c.io), 1);
		assert.equal(await runCli(['gate', '--bogus'], capture().io), 1);
	});

	it('--pretty indents the output', async () => {
		const c = capture(['{"id":"p","history":[],"utterance":"hi"}']);
		await runCli(['gate', '--pretty'], c.io);
		assert.match(c.out.join(''), /^\{\n {2}"id": "p",/);
	});
});
