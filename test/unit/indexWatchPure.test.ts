/**
 * The pure parts of live indexing: exclude settings → walk globs (and the watcher's pre-filter),
 * the path debouncer under an injected clock, and the status-bar / progress texts.
 */
import assert from 'node:assert/strict';
import { excludesFromSettings, vscodeGlobToGitignore, WatchFilter } from '../../src/extension/indexing/indexExcludes';
import {
	etaSeconds,
	NOT_INDEXED,
	progressMessage,
	statusBarText,
	statusBarTooltip,
	type IndexHealth,
} from '../../src/extension/indexing/indexHealth';
import { PathBatcher, type BatchClock } from '../../src/extension/indexing/pathBatcher';
import type { IndexProgress } from '../../src/indexing/indexer';
import { IgnoreStack } from '../../src/indexing/walkIgnore';

describe('index excludes from settings', () => {
	it('takes only `true` entries of files.exclude / search.exclude, plus gatedMemory.index.exclude', () => {
		const r = excludesFromSettings({
			filesExclude: { '**/.git': true, '**/*.tmp': true, 'off/**': false, '**/*.js': { when: '$(basename).ts' } },
			searchExclude: { '**/node_modules': true, fixtures: true, '**/*.tmp': true },
			indexExclude: ['generated/**', 'docs/{api,old}/**', 42],
		});
		assert.deepEqual(r.globs, [
			'**/.git',
			'**/*.tmp',
			'**/node_modules',
			'/fixtures',
			'/generated/**',
			'/docs/{api,old}/**',
		]);
		assert.equal(r.ignored.length, 2, r.ignored.join('; '));
		assert.match(r.ignored.join(' '), /when/);
	});

	it('anchors a VS Code glob without a slash at the folder root, as VS Code matches it', () => {
		assert.equal(vscodeGlobToGitignore('fixtures'), '/fixtures');
		assert.equal(vscodeGlobToGitignore('./out/'), '/out');
		assert.equal(vscodeGlobToGitignore('**/dist'), '**/dist');
		assert.equal(vscodeGlobToGitignore('/abs/path'), null);
		assert.equal(vscodeGlobToGitignore('C:/x'), null);
	});

	it('survives settings of the wrong shape without throwing', () => {
		const r = excludesFromSettings({ filesExclude: 'nope', searchExclude: null, indexExclude: 'x' });
		assert.deepEqual(r.globs, []);
		assert.equal(r.ignored.length, 2);
	});

	it('the translated globs exclude in the walk exactly what VS Code would', async () => {
		const { globs } = excludesFromSettings({
			filesExclude: { fixtures: true, '**/*.tmp': true },
			indexExclude: ['docs/{api,old}/**'],
		});
		const rules = await IgnoreStack.forRoot('/nonexistent-root-for-test', globs);
		assert.equal(rules.excludes('fixtures', true), true);
		assert.equal(rules.excludes('src/fixtures', true), false, 'a root-anchored glob does not match deeper');
		assert.equal(rules.excludes('a/b/c.tmp', false), true);
		assert.equal(rules.excludes('docs/api/x.md', false), true);
		assert.equal(rules.excludes('docs/guide.md', false), false);
	});

	it('the watcher filter drops vendored, secret, generated, excluded and watcherExclude paths', () => {
		const f = new WatchFilter(['/fixtures'], { '**/tmp/**': true });
		for (const p of ['src/a.ts', 'docs/guide.md', 'sub/fixtures/x.ts']) assert.equal(f.wants(p), true, p);
		for (const p of [
			'node_modules/x/index.js',
			'.git/index',
			'.env',
			'keys/id_rsa',
			'package-lock.json',
			'fixtures/x.ts',
			'a/tmp/b.ts',
			'',
			'../outside.ts',
		]) {
			assert.equal(f.wants(p), false, p);
		}
	});
});

/** A clock the test moves by hand. */
class FakeClock implements BatchClock {
	t = 0;
	private timers: Array<{ at: number; fn: () => void; id: number }> = [];
	private nextId = 1;
	now() {
		return this.t;
	}
	setTimeout(fn: () => void, ms: number) {
		const id = this.nextId++;
		this.timers.push({ at: this.t + ms, fn, id });
		return id;
	}
	clearTimeout(id: unknown) {
		this.timers = this.timers.filter((x) => x.id !== id);
	}
	async advance(ms: number) {
		const end = this.t + ms;
		for (;;) {
			const due = this.timers.filter((x) => x.at <= end).sort((a, b) => a.at - b.at)[0];
			if (!due) break;
			this.timers = this.timers.filter((x) => x !== due);
			this.t = due.at;
			due.fn();
			await new Promise((r) => setImmediate(r));
		}
		this.t = end;
	}
}

describe('path batcher (debounce with a max wait)', () => {
	const timing = () => ({ delayMs: 1000, maxWaitMs: 5000 });

	it('a burst of events (a checkout of 1,000 files) becomes one batch after the quiet period', async () => {
		const clock = new FakeClock();
		const batches: string[][] = [];
		const b = new PathBatcher(timing, async (p) => void batches.push(p), clock);
		for (let i = 0; i < 1000; i++) b.add(`/ws/f${i}.ts`);
		b.add('/ws/f1.ts'); // duplicates collapse
		await clock.advance(999);
		assert.equal(batches.length, 0);
		await clock.advance(1);
		assert.equal(batches.length, 1);
		assert.equal(batches[0].length, 1000);
	});

	it('each event restarts the quiet period, but the max wait bounds the delay', async () => {
		const clock = new FakeClock();
		const at: number[] = [];
		const b = new PathBatcher(timing, async () => void at.push(clock.now()), clock);
		for (let t = 0; t < 8000; t += 500) {
			b.add(`/ws/${t}.ts`);
			await clock.advance(500);
		}
		assert.equal(at[0], 5000, 'flushed at the max wait despite the steady stream');
		await clock.advance(2000);
		assert.equal(at.length, 2);
	});

	it('never runs two flushes at once: paths arriving during a flush wait for the next batch', async () => {
		const clock = new FakeClock();
		const batches: string[][] = [];
		let release: () => void = () => undefined;
		let running = 0;
		let maxRunning = 0;
		const b = new PathBatcher(
			timing,
			async (p) => {
				batches.push(p);
				running++;
				maxRunning = Math.max(maxRunning, running);
				await new Promise<void>((r) => (release = r));
				running--;
			},
			clock,
		);
		b.add('/a');
		await clock.advance(1000);
		b.add('/b');
		await clock.advance(3000);
		assert.equal(batches.length, 1, 'second batch waits for the first flush');
		release();
		await new Promise((r) => setImmediate(r));
		await clock.advance(1000);
		assert.deepEqual(batches, [['/a'], ['/b']]);
		release();
		assert.equal(maxRunning, 1);
	});

	it('a failing flush does not stop later batches; clear() drops pending paths', async () => {
		const clock = new FakeClock();
		const batches: string[][] = [];
		const b = new PathBatcher(
			timing,
			async (p) => {
				batches.push(p);
				if (p.includes('/bad')) throw new Error('worker crashed');
			},
			clock,
		);
		b.add('/bad');
		await clock.advance(1000);
		b.add('/good');
		await clock.advance(1000);
		b.add('/dropped');
		b.clear();
		await clock.advance(5000);
		assert.deepEqual(batches, [['/bad'], ['/good']]);
	});
});

describe('index status texts', () => {
	const h = (patch: Partial<IndexHealth>): IndexHealth => ({ ...NOT_INDEXED, ...patch });

	it('shows not indexed / indexing N% / up to date · N chunks / index errors / restricted', () => {
		assert.equal(statusBarText(NOT_INDEXED, false), '$(database) Gated Memory: not indexed');
		assert.equal(statusBarText(h({ state: 'indexing', percent: 45 }), false), '$(database) Gated Memory: indexing 45%');
		assert.equal(statusBarText(h({ state: 'indexing', percent: null }), false), '$(database) Gated Memory: indexing…');
		assert.equal(
			statusBarText(h({ lastRun: 1, chunks: 12345, files: 900 }), false),
			'$(database) Gated Memory: up to date · 12,345 chunks',
		);
		assert.equal(
			statusBarText(h({ state: 'error', lastRun: 1, lastError: 'indexing worker exited with code 3' }), false),
			'$(warning) Gated Memory: index errors',
		);
		assert.equal(statusBarText(h({ state: 'indexing', percent: 45 }), true), '$(shield) Gated Memory: restricted');
	});

	it('the tooltip has the counts, skip reasons, last error and what a click does', () => {
		const t = statusBarTooltip(
			h({ lastRun: 0, files: 3, chunks: 40, skipped: { secret: 2, ignored: 0 }, lastError: 'boom' }),
			false,
			125_000,
		);
		assert.match(t, /3 files, 40 chunks/);
		assert.match(t, /2 min ago/);
		assert.match(t, /Skipped: 2 secret$/m);
		assert.match(t, /Last error: boom/);
		assert.match(t, /Inspect Memory State/);
	});

	it('progress shows files, chunks and an ETA once the rate is known', () => {
		const p: IndexProgress = {
			root: '/ws',
			phase: 'index',
			files_total: 1000,
			files_done: 250,
			files_indexed: 250,
			files_unchanged: 0,
			chunks: 1800,
			path: 'a.ts',
		};
		assert.equal(progressMessage(p, 10_000), '250 of 1,000 files, 1,800 chunks — 30 s left');
		assert.equal(
			progressMessage({ ...p, files_done: 10 }, 10_000),
			'10 of 1,000 files, 1,800 chunks — about 17 min left',
		);
		assert.equal(
			progressMessage({ ...p, files_done: 3 }, 500),
			'3 of 1,000 files, 1,800 chunks',
			'too early for an ETA',
		);
		assert.equal(progressMessage({ ...p, phase: 'walk', files_total: null }, 0), 'listing files…');
		assert.equal(etaSeconds(1000, 1000, 5000), null);
	});
});
