/**
 * `gmem chat` runs the same pipeline as the panel, so "remember that …" / "forget that …" behave
 * the same there (#19): the JSON says it was an explicit command, the reply confirms, the store
 * holds (then no longer holds) the memory, and a later conversation does not recall what was forgotten.
 */
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXIT_OK } from '../../src/cli/cliTypes';
import { runCli } from '../../src/cli/main';
import { workspaceId } from '../../src/store/location';
import { openStore } from '../../src/store/openStore';
import { captureIo } from '../fixtures/captureIo';
import { testEngines, tempStoreDir } from '../fixtures/store_engines';

type Turn = {
	turn: string;
	reply: string;
	decision: { route: string; tiers: string[]; write: string[]; memory_command?: { action: string } };
	trace: { steps: { kind: string; tier?: string; hits?: { id: string }[] }[] };
};

const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

for (const engine of testEngines())
	describe(`gmem chat: remember that / forget that (${engine.name})`, function () {
		this.timeout(180_000);
		const base = tempStoreDir('gmem-chatcmd-');
		const ws = join(base, 'ws');
		let dispose: () => Promise<void>;
		let db: string;
		let turns: Turn[];
		let stored: string[][];

		before(async () => {
			mkdirSync(ws, { recursive: true });
			writeFileSync(join(ws, 'README.md'), '# demo\n');
			const created = await engine.create();
			dispose = created.dispose;
			db = created.location.kind === 'url' ? created.location.url : created.location.dir;
			stored = [];
			const run = async (rows: unknown[]) => {
				writeFileSync(join(base, 'c.jsonl'), jsonl(rows));
				const { io, out, err } = captureIo(base, { ...process.env, GMEM_DB: '', GMEM_EMBEDDER: '' });
				const code = await runCli(['chat', 'c.jsonl', '--db', db, '--workspace', 'ws', '--json'], io);
				assert.equal(code, EXIT_OK, err());
				const opened = await openStore(created.location);
				assert.ok(opened.ok, opened.ok ? '' : opened.error.message);
				const store = opened.value;
				try {
					stored.push(
						(
							await store.db.query<{ content: string }>('SELECT content FROM research_memory WHERE workspace_id = $1', [
								workspaceId(ws),
							])
						).map((r) => r.content),
					);
				} finally {
					await store.close();
				}
				return out()
					.split('\n')
					.filter((l) => l.trim())
					.map((l) => JSON.parse(l) as Turn);
			};
			turns = [
				...(await run([{ role: 'user', content: 'remember that the nightly export runs at 03:15 UTC' }])),
				...(await run([{ role: 'user', content: 'forget that the nightly export runs at 03:15 UTC' }])),
				...(await run([{ role: 'user', content: 'what did we decide about the nightly export time?' }])),
			];
		});
		after(async () => {
			await dispose?.();
			rmSync(base, { recursive: true, force: true });
		});

		it('remember: an explicit command in the decision JSON, confirmed in the reply, stored', () => {
			const [t] = turns;
			assert.equal(t.decision.memory_command?.action, 'remember');
			assert.equal(t.decision.route, 'memory_remember');
			assert.deepEqual(t.decision.write, ['research']);
			assert.match(t.reply, /^Remembered in research memory: “the nightly export runs at 03:15 UTC”/);
			assert.deepEqual(stored[0], ['the nightly export runs at 03:15 UTC']);
		});

		it('forget: confirmed in the reply, gone from the store, not recalled in a later run', () => {
			assert.equal(turns[1].decision.memory_command?.action, 'forget');
			assert.match(turns[1].reply, /^Forgotten \(research memory\): “the nightly export runs at 03:15 UTC”/);
			assert.deepEqual(stored[1], []);
			const hits = turns[2].trace.steps.flatMap((s) =>
				s.kind === 'retrieval' && s.tier === 'research' ? (s.hits ?? []) : [],
			);
			assert.ok(
				turns[2].trace.steps.some((s) => s.kind === 'retrieval' && s.tier === 'research'),
				'research was searched',
			);
			assert.deepEqual(hits, []);
		});
	});
