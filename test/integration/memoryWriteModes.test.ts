/**
 * `gatedMemory.memory.writes` and `.reads` through the real chat turn on both engines (PGlite via
 * its owner process, PostgreSQL when GMEM_TEST_PG_URL is set): the ChatController with the write
 * gate at its persist point, the real write path and recall. Confirm mode: nothing in research
 * memory or the profile until Approve; Edit stores the edited text; Discard stores nothing and
 * is in the trace; pending proposals survive a reload (a new service on the same store);
 * Restricted Mode writes nothing; `off` writes nothing and says so; reads leave tiers out.
 */
import assert from 'node:assert/strict';
import type { HostToWebviewMessage } from '../../src/core/protocol';
import { DEFAULT_THRESHOLDS } from '../../src/core/thresholds';
import type { DecisionTrace } from '../../src/core/trace';
import type { ChatController } from '../../src/chat/chatController';
import type { MemoryProposals } from '../../src/chat/memoryProposals';
import { gatedRecall, type ReadTier, type WriteMode } from '../../src/chat/memoryWriteGate';
import { storeMemory } from '../../src/chat/turnStore';
import type { WorkspaceMemory } from '../../src/chat/workspaceMemory';
import { testEngines } from '../fixtures/store_engines';
import { memoryChat, memoryWorkspace, type MemoryWorkspace } from '../fixtures/memoryChat';
import type { Result } from '../../src/core/result';

/** A port's Result, unwrapped: an err fails the test with its message. */
function unwrap<T>(r: Result<T>): T {
	if (!r.ok) throw new Error(`port returned err: ${r.error}`);
	return r.value;
}

const notes = (trace: DecisionTrace | null | undefined) =>
	(trace?.steps ?? []).flatMap((s) => (s.kind === 'note' ? [s.message] : []));

for (const engine of testEngines())
	describe(`memory write modes (${engine.name})`, function () {
		this.timeout(120_000);
		let w: MemoryWorkspace;
		let memory: WorkspaceMemory;
		let mode: WriteMode = 'confirm';
		let reads: ReadTier[] = ['research', 'profile', 'instructions'];
		let restricted = false;
		let proposals: MemoryProposals;
		let controller: ChatController;
		let posted: HostToWebviewMessage[] = [];
		let ids: () => string[];

		let newProposals: () => MemoryProposals;
		const count = async (sql: string, params: unknown[] = []) => {
			const store = await memory.openStore();
			return (await store.db.query<{ n: number }>(sql, params))[0].n;
		};
		const research = () => count('SELECT count(*)::int AS n FROM research_memory WHERE workspace_id = $1', [ids()[0]]);
		const researchChunks = () =>
			count(`SELECT count(*)::int AS n FROM chunks WHERE workspace_id = $1 AND tier = 'research'`, [ids()[0]]);
		const profile = () => count('SELECT count(*)::int AS n FROM profile_entries WHERE workspace_id = $1', [ids()[0]]);
		const traceOf = (turnId: string) => {
			const e = controller.session.entries.find((x) => x.kind === 'assistant' && x.turnId === turnId);
			return e?.kind === 'assistant' ? e.trace : null;
		};
		/** Sends a turn and waits for its write path (the controller awaits persist before resolving). */
		const send = (turnId: string, text: string) => controller.send(turnId, text);
		const pendingOf = async (turnId: string) =>
			(await proposals.list()).filter((p) => p.turnId === turnId && p.state === 'pending');

		before(async () => {
			w = await memoryWorkspace(engine, { prefix: 'gmem-modes-' });
			({ memory, ids } = w);
			({ proposals, controller, newProposals } = memoryChat(w, {
				mode: () => mode,
				isRestricted: () => restricted,
				reads: () => reads,
				onPost: (message) => posted.push(message),
			}));
		});
		beforeEach(() => {
			posted = [];
			mode = 'confirm';
			restricted = false;
			reads = ['research', 'profile', 'instructions'];
		});
		after(async () => {
			await w?.close();
		});

		it('confirm: a correction becomes a pending proposal; nothing is in research memory until Approve', async () => {
			await send('c1', 'Correction: the API server listens on port 9090, not 8080.');
			const pending = await pendingOf('c1');
			assert.equal(pending.length, 1);
			assert.equal(pending[0].kind, 'correction');
			assert.equal(pending[0].tier, 'research');
			assert.equal(pending[0].text, 'Correction: the API server listens on port 9090, not 8080.');
			assert.equal(await research(), 0, 'no research row before approval');
			assert.equal(await researchChunks(), 0, 'nothing searchable before approval');
			assert.ok(
				notes(traceOf('c1')).some((m) => /awaiting approval/.test(m) && /nothing written yet/.test(m)),
				notes(traceOf('c1')).join(' | '),
			);
			// The conversation tier is still recorded (the transcript is not memory).
			assert.equal(await count('SELECT count(*)::int AS n FROM conversation_turns WHERE turn_id = $1', ['c1']), 2);

			const d = await proposals.approve(pending[0].id);
			assert.ok(d.ok, d.message);
			await controller.appendTraceSteps(d.turnId!, d.steps);
			const [row] = await (
				await memory.openStore()
			).db.query<{ kind: string; content: string; source_turn: string }>(
				'SELECT kind, content, source_turn FROM research_memory WHERE workspace_id = $1',
				[ids()[0]],
			);
			assert.deepEqual(row, {
				kind: 'correction',
				content: 'Correction: the API server listens on port 9090, not 8080.',
				source_turn: 'c1',
			});
			assert.ok((await researchChunks()) > 0, 'approved memory is searchable');
			assert.ok(
				notes(traceOf('c1')).some((m) => /^approved by the user: remembered: research inserted/.test(m)),
				notes(traceOf('c1')).join(' | '),
			);
			assert.equal((await pendingOf('c1')).length, 0);
			// Approving twice writes nothing more.
			assert.equal((await proposals.approve(pending[0].id)).ok, false);
			assert.equal(await research(), 1);
		});

		it('confirm: Edit stores the edited text, not the proposed one', async () => {
			await send('c2', 'Actually, feature flags live in LaunchDarkly, not env vars.');
			const [p] = await pendingOf('c2');
			assert.ok(p, 'a proposal');
			const edited = 'Feature flags live in LaunchDarkly (project "web"), never in environment variables.';
			const d = await proposals.approve(p.id, `  ${edited}\n`);
			assert.ok(d.ok, d.message);
			assert.match(d.message, /remembered \(edited\)/);
			const rows = await (
				await memory.openStore()
			).db.query<{ content: string }>(
				'SELECT content FROM research_memory WHERE workspace_id = $1 AND source_turn = $2',
				[ids()[0], 'c2'],
			);
			assert.deepEqual(
				rows.map((r) => r.content),
				[edited],
			);
			const [decided] = await (
				await memory.openStore()
			).db.query<{ status: string; stored_text: string }>(
				'SELECT status, stored_text FROM memory_proposals WHERE id = $1::bigint',
				[p.id],
			);
			assert.deepEqual(decided, { status: 'approved', stored_text: edited });
		});

		it('confirm: an empty or oversized edit is refused with a reason and the proposal stays pending', async () => {
			await send('c3', 'From now on, always answer in British English.');
			const [p] = await pendingOf('c3');
			assert.equal(p?.kind, 'instruction');
			const before = await profile();
			const empty = await proposals.approve(p.id, '   ');
			assert.equal(empty.ok, false);
			assert.match(empty.message, /cannot be empty/);
			const huge = await proposals.approve(p.id, 'x'.repeat(5000));
			assert.equal(huge.ok, false);
			assert.match(huge.message, /at most 4000 characters/);
			assert.equal(await profile(), before);
			assert.equal((await pendingOf('c3')).length, 1);
		});

		it('confirm: Discard stores nothing and is recorded in the trace and the proposal row', async () => {
			const before = await profile();
			const [p] = await pendingOf('c3');
			const d = await proposals.discard(p.id);
			assert.ok(d.ok, d.message);
			await controller.appendTraceSteps(d.turnId!, d.steps);
			assert.equal(await profile(), before, 'nothing written to the profile');
			assert.ok(
				notes(traceOf('c3')).some((m) => /discarded: nothing written to the profile/.test(m)),
				notes(traceOf('c3')).join(' | '),
			);
			const [row] = await (
				await memory.openStore()
			).db.query<{ status: string }>('SELECT status FROM memory_proposals WHERE id = $1::bigint', [p.id]);
			assert.equal(row.status, 'discarded');
			assert.ok(
				posted.some((m) => m.type === 'state/restore'),
				'the panel is sent the updated trace',
			);
		});

		it('confirm: pending proposals survive a reload (a new service over the same store lists them)', async () => {
			await send('c4', 'My favourite editor is helix.');
			const reloaded = newProposals();
			const list = await reloaded.list();
			const mine = list.filter((p) => p.turnId === 'c4');
			assert.equal(mine.length, 1);
			assert.equal(mine[0].kind, 'profile');
			assert.equal(mine[0].state, 'pending');
			assert.ok(
				!list.some((p) => p.turnId === 'c3' && p.state === 'pending'),
				'a discarded one is not pending after reload',
			);
			const d = await reloaded.approve(mine[0].id);
			assert.ok(d.ok, d.message);
			const [v] = await (
				await memory.openStore()
			).db.query<{ value: string }>(
				`SELECT value FROM profile_entries WHERE workspace_id = $1 AND key = 'favourite editor' AND valid_to IS NULL`,
				[ids()[0]],
			);
			assert.equal(v.value, 'helix');
		});

		it('Restricted Mode: no proposal, nothing written, and Approve is refused', async () => {
			mode = 'confirm';
			await send('c5', 'Correction: staging runs on Kubernetes 1.29, not 1.27.');
			assert.equal((await pendingOf('c5')).length, 1);
			const rBefore = await research();
			const [p] = await pendingOf('c5');
			restricted = true;
			const d = await proposals.approve(p.id);
			assert.equal(d.ok, false);
			assert.match(d.message, /Restricted Mode/);
			assert.equal(await research(), rBefore);
			const proposalsBefore = await count('SELECT count(*)::int AS n FROM memory_proposals');
			await send('c6', 'Correction: the worker pool has 8 threads, not 4.');
			assert.equal(
				await count('SELECT count(*)::int AS n FROM memory_proposals'),
				proposalsBefore,
				'nothing proposed in Restricted Mode',
			);
			assert.equal(await research(), rBefore);
			assert.ok(notes(traceOf('c6')).some((m) => /Restricted Mode: nothing written/.test(m)));
		});

		it('off: nothing written to research or profile, the trace says so; auto writes as before', async () => {
			mode = 'off';
			const r0 = await research();
			const p0 = await count('SELECT count(*)::int AS n FROM memory_proposals');
			await send('o1', 'Correction: the cache TTL is 600 seconds, not 60.');
			assert.equal(await research(), r0);
			assert.equal(await count('SELECT count(*)::int AS n FROM memory_proposals'), p0, 'off proposes nothing either');
			assert.ok(
				notes(traceOf('o1')).some((m) =>
					/memory writes are off \(gatedMemory\.memory\.writes\): research not written/.test(m),
				),
				notes(traceOf('o1')).join(' | '),
			);
			mode = 'auto';
			await send('a1', 'Correction: the cache TTL is 300 seconds, not 60.');
			assert.equal(await research(), r0 + 1, 'auto writes the correction at once');
		});

		it('reads: a tier left out of gatedMemory.memory.reads is not recalled, and the trace says so', async () => {
			mode = 'auto';
			await send('i1', 'From now on, always answer in British English.');
			reads = ['profile', 'instructions'];
			const port = gatedRecall(
				storeMemory({ openStore: () => memory.openStore(), embedder: () => memory.embedder(), workspaceIds: ids }),
				() => reads,
			);
			const result = { policy: { qa_k: 3, qa_min_similarity: 0 } } as unknown as Parameters<typeof port.recall>[2];
			const without = unwrap(await port.recall('cache TTL seconds', ['research'], result, DEFAULT_THRESHOLDS));
			assert.equal(without.chunks.length, 0);
			assert.ok(!without.steps.some((s) => s.kind === 'retrieval'));
			assert.ok(
				without.steps.some(
					(s) => s.kind === 'note' && /research not recalled: gatedMemory\.memory\.reads leaves it out/.test(s.message),
				),
			);
			reads = ['research'];
			const withIt = unwrap(await port.recall('cache TTL seconds', ['research'], result, DEFAULT_THRESHOLDS));
			assert.ok(
				withIt.chunks.some((c) => /300 seconds/.test(c.text)),
				JSON.stringify(withIt.chunks),
			);
			// Standing instructions follow `instructions`.
			assert.deepEqual(unwrap(await port.instructions()), []);
			reads = ['instructions'];
			assert.deepEqual(unwrap(await port.instructions()), ['From now on, always answer in British English.']);
		});
	});
