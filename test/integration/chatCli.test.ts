/**
 * `gmem chat` end to end through runCli, on PGlite and (with GMEM_TEST_PG_URL) the PostgreSQL
 * server: a JSON Lines conversation indexes a temp folder, answers a workspace question with
 * citations, remembers a statement, a correction supersedes it, and a new conversation — in the
 * same run and in a second run on the same store — recalls the correction and not the stale
 * memory. Real parts throughout: the built-in embedder and reranker, the store, the write path.
 */
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXIT_OK, EXIT_STORE, EXIT_USAGE } from '../../src/cli/cliTypes';
import { runCli } from '../../src/cli/main';
import { NO_LIVE_STATE } from '../../src/cli/chatHost';
import { memoriesByDocIds } from '../../src/store/memoryRepo';
import { openStore } from '../../src/store/openStore';
import { workspaceId } from '../../src/store/location';
import { captureIo } from '../fixtures/captureIo';
import { testEngines, tempStoreDir } from '../fixtures/store_engines';
import { writeDemoSources } from '../fixtures/demoWorkspace';

type Step = { kind: string; message?: string; stage?: string; tier?: string };
type Turn = {
	turn?: string;
	line?: number;
	error?: string;
	reply: string;
	status: string;
	citations: { n: number; label: string; start_line: number | null }[];
	decision: { trigger: string; tiers: string[]; write: string[]; route: string; retrieve: boolean };
	trace: { decision: { trigger: string }; steps: Step[] };
};

async function gmem(args: string[], cwd: string): Promise<{ code: number; out: Turn[]; err: string }> {
	const { io, out, err } = captureIo(cwd, { ...process.env, GMEM_DB: '', GMEM_EMBEDDER: '' });
	const code = await runCli(args, io);
	const rows = out()
		.split('\n')
		.filter((l) => l.trim())
		.map((l) => JSON.parse(l) as Turn);
	return { code, out: rows, err: err() };
}

const notes = (t: Turn) => t.trace.steps.filter((s) => s.kind === 'note').map((s) => s.message ?? '');
const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

for (const engine of testEngines()) {
	describe(`gmem chat replays a conversation end to end (${engine.name})`, function () {
		this.timeout(180_000);
		const base = tempStoreDir('gmem-chatcli-');
		const ws = join(base, 'ws');
		let db: string;
		let dispose: () => Promise<void>;
		let first: Turn[];

		before(async () => {
			writeDemoSources(ws);
			const created = await engine.create();
			dispose = created.dispose;
			db = created.location.kind === 'url' ? created.location.url : created.location.dir;
			writeFileSync(
				join(base, 'conversation.jsonl'),
				jsonl([
					{ index: 'ws' },
					{ role: 'user', content: 'How does parseConfig in src/config.ts handle invalid JSON input?' },
					{ role: 'assistant', content: 'parseConfig calls JSON.parse, which throws a SyntaxError on invalid JSON.' },
					{ role: 'user', content: 'Remember that we deploy the billing service with Helm charts.' },
					{ role: 'user', content: "No, that's wrong: we deploy the billing service with Kustomize, not Helm." },
					{ role: 'bogus' },
					{ new_conversation: true },
					{ role: 'user', content: 'What did we decide about deploying the billing service?' },
				]),
			);
			const r = await gmem(['chat', 'conversation.jsonl', '--db', db, '--json'], base);
			assert.equal(r.code, EXIT_OK, r.err);
			first = r.out;
		});
		after(async () => {
			await dispose?.();
			rmSync(base, { recursive: true, force: true });
		});

		it('prints one object per user turn, and a bad line as its own error without stopping', () => {
			assert.deepEqual(
				first.map((t) => t.turn ?? `line ${t.line}`),
				['cli-1', 'cli-2', 'cli-3', 'line 6', 'cli-4'],
			);
			assert.match(first[3].error ?? '', /expected \{"role": "user"/);
		});

		it('indexes the folder first, then answers a workspace question with citations of the right file', () => {
			const [q] = first;
			assert.equal(q.decision.trigger, 'question');
			assert.deepEqual(q.decision.tiers, ['workspace']);
			assert.equal(q.status, 'done');
			assert.equal(q.citations[0]?.label, 'src/config.ts:1-3 (parseConfig)');
			assert.match(q.reply, /parseConfig/);
			assert.ok(
				q.trace.steps.some((s) => s.kind === 'retrieval'),
				'the trace holds the retrieval step',
			);
			assert.ok(
				notes(q).some((n) => /vector arm: gmem-static/.test(n)),
				`the built-in embedder ran: ${notes(q).join(' | ')}`,
			);
			assert.ok(notes(q).includes(NO_LIVE_STATE), 'the trace says there is no live state');
		});

		it('persists the statement, and the correction supersedes it (the final trace says what was written)', async () => {
			const [, remember, correction] = first;
			assert.deepEqual(remember.decision.write, ['research']);
			const inserted = notes(remember).find((n) => n.startsWith('remembered:')) ?? '';
			const staleId = /research inserted (memory:\S+?)(;|$)/.exec(inserted)?.[1];
			assert.ok(staleId, inserted);
			assert.equal(correction.decision.trigger, 'correction');
			assert.match(notes(correction).join(' | '), new RegExp(`superseded ${staleId}`));
			const opened = await openStore(engineLocation(db));
			assert.ok(opened.ok);
			try {
				const [stale] = await memoriesByDocIds(opened.value.db, workspaceId(ws), [staleId]);
				assert.ok(stale && stale.superseded_by !== null, 'the stale memory is superseded in the store');
				// The conversation tier keeps the final trace: decision, retrieval and the persist note.
				const rows = await opened.value.db.query<{ trace: { steps: Step[] } | null }>(
					"SELECT trace FROM conversation_turns WHERE workspace_id = $1 AND turn_id = 'cli-3' AND role = 'assistant'",
					[workspaceId(ws)],
				);
				assert.equal(rows.length, 1);
				assert.ok(
					rows[0].trace?.steps.some((s) => s.kind === 'note' && /superseded/.test(s.message ?? '')),
					'the stored trace is the final one',
				);
			} finally {
				await opened.value.close();
			}
		});

		it('a new conversation recalls the correction from research memory, not the superseded statement', () => {
			const recall = first[4];
			assert.equal(recall.decision.trigger, 'recall');
			assert.ok(recall.decision.tiers.includes('research'));
			assert.match(recall.reply, /Kustomize/);
			assert.ok(!/Helm charts\\?\./.test(recall.reply.replace(/not Helm/g, '')), recall.reply);
		});

		it('a second run on the same store (a new process, a new conversation) recalls it too', async () => {
			writeFileSync(
				join(base, 'again.jsonl'),
				jsonl([
					{ workspace: 'ws' },
					{ role: 'user', content: 'What did we decide about deploying the billing service?' },
				]),
			);
			const r = await gmem(['chat', 'again.jsonl', '--db', db, '--json'], base);
			assert.equal(r.code, EXIT_OK, r.err);
			assert.equal(r.out.length, 1);
			assert.match(r.out[0].reply, /Kustomize/);
			assert.ok(
				r.out[0].citations.some((c) => /research/.test(c.label)),
				JSON.stringify(r.out[0].citations),
			);
		});

		it('the human form prints the reply, its sources and the decision', async () => {
			writeFileSync(
				join(base, 'one.jsonl'),
				jsonl([{ role: 'user', content: 'How does parseConfig in src/config.ts handle invalid JSON input?' }]),
			);
			const { io, out, err } = captureIo(base, { ...process.env, GMEM_DB: '' });
			const code = await runCli(['chat', 'one.jsonl', '--db', db, '--workspace', 'ws'], io);
			assert.equal(code, EXIT_OK, err());
			assert.match(out(), /sources:\n {2}\[1\] src\/config\.ts:1-3/);
			assert.match(out(), /decision: \S+ · trigger question · path rag · search workspace/);
		});
	});
}

function engineLocation(db: string) {
	return db.startsWith('postgres') ? ({ kind: 'url', url: db } as const) : ({ kind: 'folder', dir: db } as const);
}

describe('gmem chat usage and store errors', function () {
	this.timeout(60_000);
	it('--generator openai without a base URL is a usage error (exit 1), not a silent fallback', async () => {
		const { io, err } = captureIo(process.cwd(), { GMEM_DB: '' });
		assert.equal(await runCli(['chat', '--generator', 'openai'], io), EXIT_USAGE);
		assert.match(err(), /--openai-base-url/);
	});
	it('a store that cannot be opened is exit 2', async () => {
		const { io, err } = captureIo(process.cwd(), { GMEM_DB: '' });
		assert.equal(await runCli(['chat', '--db', 'postgres://nobody@127.0.0.1:1/none'], io), EXIT_STORE);
		assert.match(err(), /cannot open/);
	});
});
