/**
 * The LiveStateSource contract with a fake host (the sources are VS Code's; the gatherer is the
 * product's): budgets, cancellation, caps, redaction, errors and "why not" notes.
 */
import assert from 'node:assert/strict';
import { boundForRedaction, gatherLiveState } from '../../../src/chat/liveState/gatherLiveState';
import {
	HEADLESS_LIVE_STATE,
	type LiveItem,
	type LiveRead,
	type LiveStateHost,
	type LiveStateSource,
} from '../../../src/chat/liveState/liveStatePorts';
import { planLiveSources, type LiveSource } from '../../../src/core/liveState/liveSources';
import { DEFAULT_THRESHOLDS, type Thresholds } from '../../../src/core/thresholds';
import type { TraceStep } from '../../../src/core/trace';

const item = (citation: string, text: string, path: string | null = null): LiveItem => ({
	citation,
	path,
	startLine: null,
	endLine: null,
	text,
});

function source(name: LiveSource, read: LiveStateSource['read']): LiveStateSource {
	return { source: name, read };
}
const ok = (items: LiveItem[], read = 'read'): Promise<LiveRead> => Promise.resolve({ status: 'ok', items, read });
const never = (_r: unknown, signal: AbortSignal): Promise<LiveRead> =>
	new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));
const notes = (steps: TraceStep[]) => steps.map((s) => (s.kind === 'note' ? s.message : '')).filter(Boolean);
const t = (over: Partial<Thresholds> = {}): Thresholds => ({ ...DEFAULT_THRESHOLDS, ...over });
const allSources = planLiveSources(
	'which errors does the Problems view show, what changed since my last commit in the terminal, the selection?',
	{ path: 'tool', tiers: [] },
);

describe('live state: gathering from a host', () => {
	it('reads every planned source and writes one note per source, with counts and time', async () => {
		const host: LiveStateHost = {
			sources: {
				diagnostics: source('diagnostics', () =>
					ok(
						[
							item(
								'Problems: src/billing.ts:2',
								"error TS2322: Type 'string' is not assignable to type 'number'.",
								'src/billing.ts',
							),
						],
						'1 error in 1 file',
					),
				),
				git: source('git', () =>
					ok(
						[item('git status', 'On branch main'), item('git diff src/config.ts', '+const x = 1;', 'src/config.ts')],
						'branch main, 1 changed file',
					),
				),
				editor: source('editor', () => Promise.resolve({ status: 'unavailable', reason: 'no active editor' })),
			},
		};
		const out = await gatherLiveState(host, allSources, 'q', t(), new AbortController().signal, false);
		assert.deepEqual(allSources.sources, ['diagnostics', 'editor', 'git', 'terminal']);
		assert.deepEqual(
			out.items.map((i) => i.citation),
			['Problems: src/billing.ts:2', 'git status', 'git diff src/config.ts'],
		);
		assert.deepEqual(out.read, ['diagnostics', 'git']);
		const n = notes(out.steps);
		assert.match(n[0], /^diagnostics: 1 error in 1 file · 1 item, \d+ chars, \d+ ms$/);
		assert.match(n[1], /^editor: not read — no active editor/);
		assert.match(n[2], /^git: branch main, 1 changed file · 2 items/);
		assert.match(n[3], /^terminal: not read — this host has no such source/);
		assert.match(n[4], /^live state gathered in \d+ ms: 3 items from diagnostics, git$/);
	});

	it('a source past its budget is "timed out" and the others still answer', async () => {
		let aborted = false;
		const host: LiveStateHost = {
			sources: {
				diagnostics: source('diagnostics', (_r, signal) => {
					signal.addEventListener('abort', () => (aborted = true));
					return never(_r, signal);
				}),
				git: source('git', () => ok([item('git status', 'clean')])),
			},
		};
		const plan = planLiveSources('errors in the Problems view and my uncommitted changes', { path: 'tool', tiers: [] });
		const out = await gatherLiveState(
			host,
			plan,
			'q',
			t({ live_source_budget_ms: 30 }),
			new AbortController().signal,
			false,
		);
		assert.deepEqual(
			out.items.map((i) => i.citation),
			['git status'],
		);
		assert.ok(notes(out.steps).includes('diagnostics: not read — timed out after 30 ms (live_source_budget_ms)'));
		assert.equal(aborted, true, 'the source is told to stop');
	});

	it("the turn's Stop cancels the reads", async () => {
		const stop = new AbortController();
		const host: LiveStateHost = { sources: { git: source('git', never) } };
		const plan = planLiveSources('what are my uncommitted changes?', { path: 'tool', tiers: [] });
		const pending = gatherLiveState(host, plan, 'q', t({ live_source_budget_ms: 10_000 }), stop.signal, false);
		stop.abort();
		const out = await pending;
		assert.deepEqual(out.items, []);
		assert.ok(notes(out.steps).includes('git: not read — the turn was stopped'));
	});

	it("a throwing source is that source's failure, not the turn's", async () => {
		const host: LiveStateHost = { sources: { git: source('git', () => Promise.reject(new Error('git exploded'))) } };
		const out = await gatherLiveState(
			host,
			planLiveSources('git status please', { path: 'tool', tiers: [] }),
			'q',
			t(),
			new AbortController().signal,
			false,
		);
		const step = out.steps.find((s) => s.kind === 'note' && s.message.startsWith('git:'));
		assert.deepEqual(step, {
			kind: 'note',
			stage: 'live',
			level: 'warn',
			message: 'git: not read — failed: git exploded',
		});
	});

	it('caps items and characters, cutting a long item with a visible note', async () => {
		const many = Array.from({ length: 30 }, (_, i) => item(`Problems: src/f${i}.ts:1`, `error ${i}`, `src/f${i}.ts`));
		const host: LiveStateHost = {
			sources: {
				diagnostics: source('diagnostics', () =>
					Promise.resolve({ status: 'ok', items: many, read: '30 errors', total: 57 }),
				),
			},
		};
		const plan = planLiveSources('what is in the Problems view?', { path: 'tool', tiers: [] });
		const out = await gatherLiveState(
			host,
			plan,
			'q',
			t({ live_source_max_items: 5 }),
			new AbortController().signal,
			false,
		);
		assert.equal(out.items.length, 5);
		assert.match(notes(out.steps)[0], /5 of 57 items/);

		const long = {
			sources: {
				diagnostics: source('diagnostics', () =>
					ok([
						item('Problems: a.ts:1', `${'x'.repeat(79)}\n`.repeat(63), 'a.ts'),
						item('Problems: b.ts:1', `${'y'.repeat(89)}\n`.repeat(10), 'b.ts'),
					]),
				),
			},
		};
		const cut = await gatherLiveState(
			long,
			plan,
			'q',
			t({ live_item_max_chars: 1000, live_source_max_chars: 1500 }),
			new AbortController().signal,
			false,
		);
		assert.equal(cut.items.length, 1, 'the second item does not fit the source cap');
		assert.equal(cut.items[0].text.length, 1000);
		assert.ok(cut.items[0].text.endsWith('[cut: live_item_max_chars]'));
	});

	it('redacts secrets as the indexer does and never quotes a secret file', async () => {
		const key = 'sk-proj-abcdefghijklmnopqrstuvwxyz0123456789';
		const diff = `diff --git a/src/config.ts b/src/config.ts\n+export const apiKey = "${key}";\n+const region = "eu";`;
		const host: LiveStateHost = {
			sources: {
				git: source('git', () =>
					ok([
						item('git diff src/config.ts', diff, 'src/config.ts'),
						item('git diff .env', 'OPENAI_API_KEY=hunter2', '.env'),
					]),
				),
			},
		};
		const out = await gatherLiveState(
			host,
			planLiveSources('show my uncommitted changes', { path: 'tool', tiers: [] }),
			'q',
			t(),
			new AbortController().signal,
			false,
		);
		assert.equal(out.items.length, 1);
		assert.ok(out.items[0].text.includes('[REDACTED]'));
		assert.ok(!out.items[0].text.includes(key));
		assert.ok(out.items[0].text.includes('const region = "eu"'));
		assert.match(notes(out.steps)[0], /1 secret redacted · 1 secret file not quoted/);
	});

	it('Restricted Mode and a headless host read nothing and say why', async () => {
		let called = false;
		const host: LiveStateHost = { sources: { git: source('git', () => ((called = true), ok([]))) } };
		const plan = planLiveSources('what are my uncommitted changes?', { path: 'tool', tiers: [] });
		const restricted = await gatherLiveState(host, plan, 'q', t(), new AbortController().signal, true);
		assert.equal(called, false);
		assert.deepEqual(notes(restricted.steps), ['live state not read: Restricted Mode (git skipped)']);
		const cli = await gatherLiveState(HEADLESS_LIVE_STATE, plan, 'q', t(), new AbortController().signal, false);
		assert.match(notes(cli.steps)[0], /^no live state in the CLI .*; git not read$/);
	});

	it('bounds what the secret scanner reads: a minified line is cut at a token boundary or left out, never inside a token', () => {
		const key = `AKIA${'Q'.repeat(16)}`;
		const minified = `${'var a=1;'.repeat(150)}${key};${'b'.repeat(100_000)}`;
		const bounded = boundForRedaction(`+${minified}\n+const port = 8080;`, 2000);
		assert.ok(bounded.length < 1200, `bounded to ${bounded.length} chars`);
		assert.ok(!bounded.includes('AKIA'), 'no partial key survives');
		assert.match(bounded, /… \[line of 101,\d{3} characters cut\]/);
		assert.ok(bounded.endsWith('+const port = 8080;'));
		assert.equal(boundForRedaction('x'.repeat(5000), 2000), '[a line of 5,000 characters without a break, left out]');
		assert.equal(boundForRedaction('short\ntext', 2000), 'short\ntext');
	});
});
