/**
 * "remember that …" / "forget that …" typed in chat (#19), through the real ChatController, write
 * gate, write path and recall on both engines (PGlite via its owner process; PostgreSQL when
 * GMEM_TEST_PG_URL is set): remember then recall in a new conversation; forget then not recalled;
 * Undo restores; several matches are listed and nothing is forgotten until one is picked; nothing
 * matching forgets nothing; confirm mode goes through the chip; off and Restricted Mode write
 * nothing and say so.
 */
import assert from 'node:assert/strict';
import type { HostToWebviewMessage } from '../../src/core/protocol';
import type { ChatController } from '../../src/chat/chatController';
import type { AssistantEntry } from '../../src/chat/conversationSession';
import type { MemoryProposals } from '../../src/chat/memoryProposals';
import type { WriteMode } from '../../src/chat/memoryWriteGate';
import type { WorkspaceMemory } from '../../src/chat/workspaceMemory';
import { testEngines } from '../fixtures/store_engines';
import { memoryChat, memoryWorkspace, type MemoryWorkspace } from '../fixtures/memoryChat';

for (const engine of testEngines())
	describe(`chat memory commands (${engine.name})`, function () {
		this.timeout(180_000);
		let w: MemoryWorkspace;
		let memory: WorkspaceMemory;
		let mode: WriteMode = 'auto';
		let restricted = false;
		let proposals: MemoryProposals;
		let controller: ChatController;
		let posted: HostToWebviewMessage[] = [];
		let ids: () => string[];

		const db = async () => (await memory.openStore()).db;
		const rows = async (sql: string, params: unknown[] = []) =>
			(await db()).query<Record<string, unknown>>(sql, params);
		const researchTexts = async () =>
			(await rows('SELECT content FROM research_memory WHERE workspace_id = $1 ORDER BY id', [ids()[0]])).map(
				(r) => r.content,
			);
		const profileValues = async () =>
			(
				await rows('SELECT kind, value FROM profile_entries WHERE workspace_id = $1 AND valid_to IS NULL ORDER BY id', [
					ids()[0],
				])
			).map((r) => `${String(r.kind)}: ${String(r.value)}`);
		const entry = (turnId: string): AssistantEntry => {
			const e = controller.session.entries.find((x) => x.kind === 'assistant' && x.turnId === turnId);
			assert.ok(e && e.kind === 'assistant', `no reply for ${turnId}`);
			return e;
		};
		/** The research memory texts recall used for a turn (the retrieval step's hits → rows). */
		const recalledDocs = (turnId: string) =>
			(entry(turnId).trace?.steps ?? []).flatMap((s) =>
				s.kind === 'retrieval' && s.tier === 'research' ? s.hits.map((h) => h.id) : [],
			);

		before(async () => {
			w = await memoryWorkspace(engine, { prefix: 'gmem-commands-' });
			({ memory, ids } = w);
			({ proposals, controller } = memoryChat(w, {
				mode: () => mode,
				isRestricted: () => restricted,
				memoryCommands: true,
				onPost: (message) => posted.push(message),
			}));
		});
		beforeEach(() => {
			posted = [];
			mode = 'auto';
			restricted = false;
		});
		after(async () => {
			await w?.close();
		});

		it('remember: stores the remembered words as research memory, confirms it, and a new conversation recalls it', async () => {
			await controller.send('r1', 'remember that the staging DB is on port 5433');
			const r1 = entry('r1');
			assert.match(r1.markdown, /^Remembered in research memory: “the staging DB is on port 5433”/);
			assert.equal(r1.trace?.decision.memory_command?.action, 'remember');
			assert.deepEqual(r1.trace?.decision.tiers, []);
			assert.ok(!(r1.trace?.steps ?? []).some((s) => s.kind === 'retrieval'), 'no retrieval for a command');
			assert.deepEqual(await researchTexts(), ['the staging DB is on port 5433']);
			assert.deepEqual(await profileValues(), [], 'a project fact is not a profile entry');

			await controller.newConversation();
			await controller.send('r2', 'what did we decide about the staging DB port?');
			const [doc] = (await rows('SELECT doc_id FROM research_memory WHERE workspace_id = $1', [ids()[0]])).map(
				(r) => r.doc_id,
			);
			assert.ok(recalledDocs('r2').includes(String(doc)), `recalled ${recalledDocs('r2').join(', ')}`);
		});

		it('remember: a preference goes to the profile', async () => {
			await controller.send('p1', 'please remember that I prefer tabs over spaces in Go files');
			assert.match(entry('p1').markdown, /^Remembered in your profile/);
			assert.deepEqual(await profileValues(), ['instruction: I prefer tabs over spaces in Go files']);
		});

		it('forget: forgets exactly the matching memory, says so, is not recalled; Undo restores it', async () => {
			await controller.send('f1', 'forget that the staging DB is on port 5433');
			const f1 = entry('f1');
			assert.match(f1.markdown, /^Forgotten \(research memory\): “the staging DB is on port 5433”/);
			assert.deepEqual(await researchTexts(), []);
			assert.deepEqual(
				await profileValues(),
				['instruction: I prefer tabs over spaces in Go files'],
				'profile untouched',
			);
			const reply = posted.find((m) => m.type === 'chat/reply' && m.params.turnId === 'f1');
			assert.ok(reply?.type === 'chat/reply');
			assert.deepEqual(
				reply.params.actions?.map((a) => [a.id, a.kind, a.label]),
				[['undo-forget', 'memory', 'Undo']],
			);

			await controller.newConversation();
			await controller.send('f2', 'what did we decide about the staging DB port?');
			assert.deepEqual(recalledDocs('f2'), [], 'a forgotten memory is not recalled');

			await controller.runAction('f1', 'undo-forget');
			const status = posted.find((m) => m.type === 'action/status' && m.params.turnId === 'f1');
			assert.ok(status?.type === 'action/status');
			assert.equal(status.params.status, 'ran', status.params.message);
			assert.deepEqual(await researchTexts(), ['the staging DB is on port 5433']);
			await controller.send('f3', 'what did we decide about the staging DB port?');
			assert.equal(recalledDocs('f3').length, 1, 'recalled again after Undo');
			// Undo runs once.
			await controller.runAction('f1', 'undo-forget');
			assert.equal((await researchTexts()).length, 1);
		});

		it('forget: several matches are listed and nothing is forgotten until one is picked', async () => {
			await controller.send('s0', 'remember that the staging DB password rotates every month');
			assert.equal((await researchTexts()).length, 2);
			await controller.send('s1', 'forget what I said about the staging DB');
			const s1 = entry('s1');
			assert.match(s1.markdown, /^Several memories match “the staging DB”/);
			assert.equal((await researchTexts()).length, 2, 'nothing forgotten yet');
			assert.deepEqual(
				s1.actions?.map((a) => a.id),
				['forget-1', 'forget-2'],
			);
			const pick = s1.actions?.find((a) => a.detail.includes('rotates'));
			assert.ok(pick);
			await controller.runAction('s1', pick.id);
			assert.deepEqual(await researchTexts(), ['the staging DB is on port 5433']);
		});

		it('forget: nothing matching forgets nothing and says so', async () => {
			await controller.send('n1', 'forget that the billing cron runs at 2am');
			assert.match(
				entry('n1').markdown,
				/^Nothing in memory matched “the billing cron runs at 2am”, so nothing was forgotten/,
			);
			assert.deepEqual(await researchTexts(), ['the staging DB is on port 5433']);
			assert.equal((await profileValues()).length, 1);
		});

		it('confirm: a remember waits in the Remember this? chip; Approve writes it', async () => {
			mode = 'confirm';
			await controller.send('c1', 'remember that feature flags live in LaunchDarkly');
			assert.match(entry('c1').markdown, /Approve it in the \*Remember this\?\* chip/);
			assert.ok(!(await researchTexts()).some((t) => /LaunchDarkly/.test(String(t))), 'not written before Approve');
			const [p] = (await proposals.list()).filter((x) => x.turnId === 'c1' && x.state === 'pending');
			assert.ok(p, 'a pending proposal');
			assert.equal(p.text, 'feature flags live in LaunchDarkly');
			const d = await proposals.approve(p.id);
			assert.ok(d.ok, d.message);
			assert.ok((await researchTexts()).includes('feature flags live in LaunchDarkly'));
		});

		it('off and Restricted Mode: nothing is written or forgotten, and the reply says so', async () => {
			const before = [await researchTexts(), await profileValues()];
			mode = 'off';
			await controller.send('o1', 'remember that the CDN is Fastly');
			assert.match(entry('o1').markdown, /^Not remembered: memory writes are off/);
			mode = 'auto';
			restricted = true;
			await controller.send('o2', 'remember that the CDN is Fastly');
			assert.match(entry('o2').markdown, /^Not remembered: this workspace is in Restricted Mode/);
			await controller.send('o3', 'forget that the staging DB is on port 5433');
			assert.match(entry('o3').markdown, /^Nothing forgotten: this workspace is in Restricted Mode/);
			assert.deepEqual([await researchTexts(), await profileValues()], before);
		});
	});
