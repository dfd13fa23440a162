/**
 * The typed write path with real PGlite: `before_persist` hooks receive structured records, and
 * the writer stores exactly what they leave — an edited answer or profile value lands, a dropped
 * record is not written — with no text rebuilt or re-parsed in between. Turns run through the
 * CLI's chat host (the editor's ChatController and pipeline) on the built-in models.
 */
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HookRegistry, type PersistRecord } from '../../src/core/hooks';
import type { HostToWebviewMessage } from '../../src/core/protocol';
import { isHostToWebviewMessage } from '../../src/core/protocol';
import { DEFAULT_THRESHOLDS } from '../../src/core/thresholds';
import { EvidenceOnlyGenerator } from '../../src/generation/evidenceOnlyGenerator';
import { ChatHost } from '../../src/cli/chatHost';
import { workspaceId } from '../../src/store/location';
import { profileValues } from '../../src/store/memoryRepo';
import { testEngines } from '../fixtures/store_engines';
import { quietLogger as quiet } from '../fixtures/hostDoubles';

const EDITED = 'EDITED by the hook: pnpm workspaces, decided in the 2026-12 review';

describe('before_persist: structured records, edits and drops honoured by the writer (pglite)', function () {
	this.timeout(120_000);
	const engine = testEngines().find((e) => e.name === 'pglite')!;
	let host: ChatHost;
	let ws: string;
	let dispose: () => Promise<void>;
	const seen: PersistRecord[][] = [];
	const posted: HostToWebviewMessage[] = [];

	before(async () => {
		const created = await engine.create();
		dispose = created.dispose;
		ws = join(created.location.kind === 'folder' ? created.location.dir : '/tmp', '..', `gmem-hooks-ws-${process.pid}`);
		mkdirSync(ws, { recursive: true });
		writeFileSync(join(ws, 'README.md'), '# demo\n');
		const hooks = new HookRegistry();
		hooks.register('before_persist', 'record what the hook sees', (p) => void seen.push(structuredClone(p.records)));
		hooks.register('before_persist', 'edit the answer, drop "shorter", reword the rest', (p) => {
			p.records = p.records.filter((r) => !(r.tier === 'profile' && /shorter/.test(r.value)));
			for (const r of p.records) {
				if (r.tier === 'research' && r.kind === 'qa') r.answer = EDITED;
				if (r.tier === 'profile') r.value = 'Indent with tabs, never spaces.';
			}
		});
		host = new ChatHost({
			location: created.location,
			workspace: ws,
			thresholds: DEFAULT_THRESHOLDS,
			generator: new EvidenceOnlyGenerator(),
			log: quiet,
			hooks,
			post: (type, params) => {
				const m: unknown = { type, params };
				assert.ok(isHostToWebviewMessage(m), `invalid ${type}`);
				posted.push(m);
			},
		});
	});
	after(async () => {
		await host?.dispose();
		await dispose?.();
		rmSync(ws, { recursive: true, force: true });
	});

	it('the hook sees typed records (kind, question, answer), and its edited answer is what is stored and recalled', async () => {
		const out = await host.say('We decided to use pnpm workspaces for the monorepo.');
		assert.deepEqual(out.decision?.write, ['research']);
		const research = seen.at(-1)?.find((r) => r.tier === 'research');
		assert.ok(research && research.tier === 'research');
		assert.equal(research.kind, 'qa');
		assert.equal(research.question, 'We decided to use pnpm workspaces for the monorepo.');
		assert.ok(research.answer.length > 0 && research.answer !== EDITED, 'the hook saw the reply as the answer');
		const store = await host.memory.openStore();
		const rows = await store.db.query<{ content: string }>(
			'SELECT content FROM research_memory WHERE workspace_id = $1 AND superseded_by IS NULL',
			[workspaceId(ws)],
		);
		assert.deepEqual(
			rows.map((r) => r.content),
			[`Q: We decided to use pnpm workspaces for the monorepo.\nA: ${EDITED}`],
		);
		const recall = await host.say('What did we decide about the monorepo?');
		assert.match(recall.reply, /EDITED by the hook/);
	});

	it('a dropped profile record is not written; an edited one lands with its new value', async () => {
		await host.say('From now on, keep answers shorter.');
		const dropped = seen.at(-1)?.find((r) => r.tier === 'profile');
		assert.ok(dropped && dropped.tier === 'profile' && dropped.kind === 'instruction', JSON.stringify(seen.at(-1)));
		const store = await host.memory.openStore();
		assert.deepEqual(
			await profileValues(store.db, workspaceId(ws)),
			[],
			'the dropped instruction is not in the profile',
		);
		await host.say('From now on, always use four spaces for indentation.');
		const values = (await profileValues(store.db, workspaceId(ws))).map((r) => r.value);
		assert.deepEqual(values, ['Indent with tabs, never spaces.']);
	});

	it('what was written reaches the open panel as chat/persisted, and the hook steps are in it', () => {
		const persisted = posted.filter((m) => m.type === 'chat/persisted');
		assert.ok(persisted.length >= 3, posted.map((m) => m.type).join(','));
		const first = persisted[0];
		assert.ok(first.type === 'chat/persisted');
		assert.equal(first.params.turnId, 'cli-1');
		const kinds = first.params.steps.map((s) => (s.kind === 'note' ? `note:${s.message.split(':')[0]}` : `${s.kind}`));
		assert.deepEqual(kinds, ['hook', 'hook', 'note:remembered']);
	});
});
