/**
 * Confirm mode's Approve and Discard after the fact (#19), on both engines with the real indexer,
 * retrieval, write gate and store: the decision is written into the stored conversation turn's
 * trace (not only the panel's history), and an approved proposal from a turn that used workspace
 * evidence is anchored to that code like an `auto` write is.
 */
import assert from 'node:assert/strict';
import { HookRegistry } from '../../src/core/hooks';
import { DEFAULT_THRESHOLDS } from '../../src/core/thresholds';
import type { TraceStep } from '../../src/core/trace';
import { ChatController } from '../../src/chat/chatController';
import { anchoredPersist } from '../../src/chat/memoryFreshness';
import type { MemoryProposals } from '../../src/chat/memoryProposals';
import { storeMemory, storePersist } from '../../src/chat/turnStore';
import type { WorkspaceMemory } from '../../src/chat/workspaceMemory';
import { testEngines } from '../fixtures/store_engines';
import { quietLogger as quiet } from '../fixtures/hostDoubles';
import { memoryChat, memoryWorkspace, type MemoryWorkspace } from '../fixtures/memoryChat';

const BILLING =
	'export function computeInvoiceTotal(lines: { cents: number; qty: number }[]): number {\n\tlet total = 0;\n\tfor (const l of lines) {\n\t\tif (l.qty <= 0) continue;\n\t\tconst line = l.cents * l.qty;\n\t\ttotal += line;\n\t}\n\t// integer cents all the way\n\treturn total;\n}\n';

for (const engine of testEngines())
	describe(`memory proposals: stored turn notes and anchors (${engine.name})`, function () {
		this.timeout(180_000);
		let w: MemoryWorkspace;
		let memory: WorkspaceMemory;
		let ids: () => string[];
		let proposals: MemoryProposals;
		let controller: ChatController;

		const storedNotes = async (turnId: string) => {
			const rows = await (
				await memory.openStore()
			).db.query<{ trace: { steps: TraceStep[] } }>(
				`SELECT trace FROM conversation_turns WHERE workspace_id = $1 AND turn_id = $2 AND role = 'assistant'`,
				[ids()[0], turnId],
			);
			return rows.flatMap((r) => r.trace.steps.flatMap((s) => (s.kind === 'note' ? [s.message] : [])));
		};
		const pendingOf = async (turnId: string) =>
			(await proposals.list()).filter((p) => p.turnId === turnId && p.state === 'pending');

		before(async () => {
			w = await memoryWorkspace(engine, {
				prefix: 'gmem-approve-',
				files: { 'src/billing.ts': BILLING },
				index: true,
			});
			({ memory, ids } = w);
			({ proposals, controller } = memoryChat(w, { mode: () => 'confirm', anchored: true, retrieve: true }));
		});
		after(async () => {
			await w?.close();
		});

		it('Discard: the stored turn says the proposal was discarded', async () => {
			await controller.send('d1', 'Actually, computeInvoiceTotal skips lines with a zero quantity, it does not throw.');
			const [p] = await pendingOf('d1');
			assert.ok(p, 'a proposal');
			assert.ok(!(await storedNotes('d1')).some((m) => /discarded/.test(m)));
			assert.ok((await proposals.discard(p.id)).ok);
			assert.ok(
				(await storedNotes('d1')).some((m) => /^proposal \d+ discarded: nothing written to research memory/.test(m)),
				(await storedNotes('d1')).join(' | '),
			);
		});

		it('Approve: written into the stored turn, and anchored to the workspace code the turn used', async () => {
			await controller.send('a1', 'Actually, computeInvoiceTotal skips lines whose qty is zero or below.');
			// Retrieval forced on retry: the turn's evidence step selects the billing.ts chunk.
			await controller.retry('a1', 'a2', 'force');
			const [p] = await pendingOf('a2');
			assert.ok(p, 'a proposal for the retried turn');
			const d = await proposals.approve(p.id);
			assert.ok(d.ok, d.message);
			assert.match(d.message, /anchored to src\/billing\.ts:1-10 \(computeInvoiceTotal\)/);
			const db = (await memory.openStore()).db;
			const anchors = await db.query<{ path: string; symbol: string | null; doc_id: string }>(
				`SELECT a.path, a.symbol, a.doc_id FROM memory_anchors a JOIN research_memory m ON m.id = a.memory_id WHERE m.source_turn = $1`,
				['a2'],
			);
			assert.deepEqual(
				anchors.map((a) => [a.path, a.symbol]),
				[['src/billing.ts', 'computeInvoiceTotal']],
			);
			assert.ok(
				(await storedNotes('a2')).some((m) =>
					/^approved by the user: remembered: research inserted .*anchored to src\/billing\.ts/.test(m),
				),
				(await storedNotes('a2')).join(' | '),
			);
		});
		it("auto: the same turn written at once is anchored the same way (the trace's doc#chunk ids resolve)", async () => {
			const { storeDeps } = w;
			const auto = new ChatController({
				log: quiet,
				thresholds: () => DEFAULT_THRESHOLDS,
				isRestricted: () => false,
				retrieve: (q, r, t) => memory.retrieve(q, r, t),
				persist: anchoredPersist(storePersist({ ...storeDeps, thresholds: () => DEFAULT_THRESHOLDS }), storeDeps),
				memory: storeMemory(storeDeps),
				hooks: new HookRegistry(),
			});
			await auto.send('u1', 'Actually, computeInvoiceTotal keeps integer cents all the way through.');
			await auto.retry('u1', 'u2', 'force');
			const db = (await memory.openStore()).db;
			const anchors = await db.query<{ path: string; symbol: string | null }>(
				`SELECT a.path, a.symbol FROM memory_anchors a JOIN research_memory m ON m.id = a.memory_id WHERE m.source_turn = $1`,
				['u2'],
			);
			assert.deepEqual(
				anchors.map((a) => [a.path, a.symbol]),
				[['src/billing.ts', 'computeInvoiceTotal']],
			);
		});
	});
