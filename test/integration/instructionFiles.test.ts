/**
 * Instruction files as gated standing instructions on a real store (PGlite, and PostgreSQL when
 * GMEM_TEST_PG_URL is set) with the real built-in embedder: the files of a temp workspace become
 * profile entries keyed by their source; a relevant turn applies the matching section (traced
 * with file, section and reason), an irrelevant one applies none, a rule's globs follow the files
 * in play; editing a file refreshes its entries, deleting it removes them; secrets never reach
 * the store; the files themselves are never written.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decideTurn } from '../../src/core/decide';
import { DEFAULT_THRESHOLDS } from '../../src/core/thresholds';
import type { TraceStep } from '../../src/core/trace';
import { InstructionFileSync } from '../../src/chat/instructionFileSync';
import type { Logger } from '../../src/chat/logger';
import { gatherEvidence } from '../../src/chat/turnEvidence';
import { storeMemory } from '../../src/chat/turnStore';
import { loadBuiltinEmbedder } from '../../src/models/builtinEmbedder';
import type { Embedder } from '../../src/models/embedder';
import { standingInstructions } from '../../src/retrieval/memoryRecall';
import { workspaceId } from '../../src/store/location';
import { setProfileValue } from '../../src/store/memoryRepo';
import { ok } from '../../src/core/result';
import { memoryState } from '../../src/store/memoryState';
import type { Store } from '../../src/store/openStore';
import { suiteStore, testEngines } from '../fixtures/store_engines';

const AGENTS = `# Acme service

## Testing
Run \`npm test\` before committing. Unit tests live in test/unit and use mocha.

## Commit messages
Write commit messages in the imperative mood and reference the issue number.
`;
const SQL_RULE = `---
description: SQL migrations
globs: db/**/*.sql
alwaysApply: false
---
Every statement is parameterised; never edit an applied migration.
`;
const COPILOT = `Deploy with the token ghp_${'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'} only from CI.\n`;

const warnings: string[] = [];
const log: Logger = {
	trace() {},
	debug() {},
	info() {},
	warn: (m) => warnings.push(m),
	error: (m) => warnings.push(String(m)),
};

function notes(steps: TraceStep[]): string[] {
	return steps.flatMap((s) => (s.kind === 'note' ? [s.message] : []));
}

for (const engine of testEngines()) {
	describe(`instruction files as standing instructions (${engine.name})`, function () {
		this.timeout(120_000);
		const root = mkdtempSync(join(tmpdir(), 'gmem-instr-'));
		const ws = workspaceId(root);
		const write = (rel: string, text: string) => {
			mkdirSync(join(root, rel, '..'), { recursive: true });
			writeFileSync(join(root, rel), text);
		};
		write('AGENTS.md', AGENTS);
		write('.cursor/rules/sql.mdc', SQL_RULE);
		write('.github/copilot-instructions.md', COPILOT);
		write('src/app.ts', 'export const x = 1;\n');
		let embedder: Embedder;
		const current = suiteStore(engine, async (store) => {
			embedder = await loadBuiltinEmbedder();
			// A standing instruction stated in chat: still applied on every turn, beside the files'.
			await setProfileValue(store.db, {
				workspaceId: ws,
				key: 'instruction:abc',
				value: 'Answer in British English.',
				kind: 'instruction',
				sourceTurn: 't0',
			});
		});
		let store: Store;
		const sync = new InstructionFileSync({
			log,
			folders: () => [root],
			isTrusted: () => true,
			thresholds: () => DEFAULT_THRESHOLDS,
		});
		const port = () =>
			storeMemory({ openStore: async () => store, embedder: async () => embedder, workspaceIds: () => [ws] });
		const turn = async (utterance: string, evidencePaths: string[] = []) => {
			const result = decideTurn({ history: [], utterance });
			const memory = port();
			const withEvidence = evidencePaths.length
				? {
						...memory,
						recall: async () =>
							ok({
								chunks: evidencePaths.map((p) => ({
									source: 'workspace' as const,
									path: p,
									startLine: 1,
									endLine: 2,
									symbol: null,
									text: 'x',
								})),
								steps: [],
							}),
					}
				: memory;
			const forced = evidencePaths.length ? { ...result, retrieve: true, tiers: ['research' as const] } : result;
			return gatherEvidence({ log, memory: withEvidence }, utterance, forced, DEFAULT_THRESHOLDS, false, () => {});
		};
		before(async () => {
			store = current();
			await sync.ensure(store);
		});
		after(() => rmSync(root, { recursive: true, force: true }));

		it('reads each file into profile entries keyed by their source, secrets redacted', async () => {
			const profile = (await memoryState(store.db, [ws])).profile;
			const fileKeys = profile.filter((p) => p.key.startsWith('file:')).map((p) => [p.key, p.kind]);
			assert.deepEqual(fileKeys, [
				['file:.cursor/rules/sql.mdc § sql', 'instruction'],
				['file:.github/copilot-instructions.md § .github/copilot-instructions.md', 'instruction'],
				['file:AGENTS.md § Commit messages', 'instruction'],
				['file:AGENTS.md § Testing', 'instruction'],
			]);
			const copilot = profile.find((p) => p.key.startsWith('file:.github/'))!;
			assert.equal(copilot.value, 'Deploy with the token [REDACTED] only from CI.');
			const rows = await store.db.query<{ n: number }>(
				`SELECT count(*)::int AS n FROM profile_entries WHERE value LIKE '%ghp_%' OR key LIKE '%ghp_%' OR source_turn LIKE '%ghp_%'`,
			);
			assert.equal(rows[0]!.n, 0);
		});

		it('keeps them out of the always-applied instructions (only the chat-stated one is there)', async () => {
			assert.deepEqual(await standingInstructions(store.db, [ws]), ['Answer in British English.']);
		});

		it('a relevant turn applies the matching section, traced with its file, section and why', async () => {
			const out = await turn('how do I run the tests?');
			assert.deepEqual(out.instructions.slice(0, 1), ['Answer in British English.']);
			const applied = out.instructions.slice(1);
			assert.equal(applied.length, 1, applied.join(' | '));
			assert.match(applied[0]!, /^Testing \(AGENTS\.md\): Run `npm test` before committing/);
			const n = notes(out.steps);
			assert.ok(
				n.some((m) =>
					/^instruction file AGENTS\.md § Testing applied: (similarity 0\.\d\d ≥ recall floor|shares \d of)/.test(m),
				),
				n.join('\n'),
			);
			assert.ok(
				n.includes('instruction files: 1 of 4 sections applied; the others do not match this turn'),
				n.join('\n'),
			);
		});

		it('an irrelevant turn applies none of them', async () => {
			for (const u of ['thanks!', 'hello there', 'what is the capital of France?']) {
				const out = await turn(u);
				assert.deepEqual(out.instructions, ['Answer in British English.'], u);
				assert.ok(
					notes(out.steps).includes('instruction files: 0 of 4 sections applied; the others do not match this turn'),
					u,
				);
			}
		});

		it('a glob rule applies when a file in play matches it: named in the message, or the evidence', async () => {
			const named = await turn('why does db/migrations/003_users.sql fail?');
			assert.ok(
				named.instructions.some((i) => i.startsWith('sql (.cursor/rules/sql.mdc): Every statement is parameterised')),
				named.instructions.join(' | '),
			);
			assert.ok(
				notes(named.steps).includes(
					'instruction file .cursor/rules/sql.mdc § sql applied: glob db/**/*.sql matches db/migrations/003_users.sql',
				),
			);
			const evidence = await turn('what does this query return', ['db/views/report.sql']);
			assert.ok(
				evidence.instructions.some((i) => i.startsWith('sql (')),
				evidence.instructions.join(' | '),
			);
			const other = await turn('why does src/app.ts fail?');
			assert.ok(!other.instructions.some((i) => i.startsWith('sql (')), other.instructions.join(' | '));
		});

		it('editing a file refreshes its entries; the file itself is never written', async () => {
			const before = statSync(join(root, 'AGENTS.md')).mtimeMs;
			write(
				'AGENTS.md',
				AGENTS.replace('Run `npm test`', 'Run `npm run test:unit`') + '\n## Releases\nTag releases as vX.Y.Z.\n',
			);
			const written = statSync(join(root, 'AGENTS.md')).mtimeMs;
			await sync.changed(store, root, 'AGENTS.md');
			const profile = (await memoryState(store.db, [ws])).profile.filter((p) => p.key.startsWith('file:AGENTS.md'));
			assert.deepEqual(
				profile.map((p) => p.key),
				['file:AGENTS.md § Commit messages', 'file:AGENTS.md § Releases', 'file:AGENTS.md § Testing'],
			);
			assert.match(profile.find((p) => p.key.endsWith('Testing'))!.value, /npm run test:unit/);
			assert.ok(written >= before);
			assert.equal(statSync(join(root, 'AGENTS.md')).mtimeMs, written, 'not written back');
			assert.match(readFileSync(join(root, 'AGENTS.md'), 'utf8'), /## Releases/);
		});

		it('a second sync of unchanged files writes nothing', async () => {
			const idsBefore = await store.db.query<{ id: string }>(
				`SELECT id::text AS id FROM profile_entries WHERE starts_with(key, 'file:') ORDER BY id`,
			);
			await sync.changed(store, root, 'AGENTS.md');
			await sync.changed(store, root, '.cursor/rules/sql.mdc');
			const idsAfter = await store.db.query<{ id: string }>(
				`SELECT id::text AS id FROM profile_entries WHERE starts_with(key, 'file:') ORDER BY id`,
			);
			assert.deepEqual(idsAfter, idsBefore);
		});

		it('deleting a file removes its entries; the others stay', async () => {
			unlinkSync(join(root, '.cursor/rules/sql.mdc'));
			await sync.changed(store, root, '.cursor/rules/sql.mdc');
			const keys = (await memoryState(store.db, [ws])).profile.map((p) => p.key);
			assert.ok(!keys.some((k) => k.startsWith('file:.cursor/')), keys.join(', '));
			assert.ok(keys.includes('file:AGENTS.md § Testing'));
			assert.ok(keys.includes('instruction:abc'), 'the chat-stated instruction is untouched');
			const out = await turn('why does db/migrations/003_users.sql fail?');
			assert.ok(!out.instructions.some((i) => i.startsWith('sql (')));
		});

		it('a full re-read drops files that went while nobody watched', async () => {
			unlinkSync(join(root, '.github/copilot-instructions.md'));
			const fresh = new InstructionFileSync({
				log,
				folders: () => [root],
				isTrusted: () => true,
				thresholds: () => DEFAULT_THRESHOLDS,
			});
			await fresh.ensure(store);
			const keys = (await memoryState(store.db, [ws])).profile.map((p) => p.key);
			assert.ok(!keys.some((k) => k.startsWith('file:.github/')), keys.join(', '));
			assert.equal(keys.filter((k) => k.startsWith('file:AGENTS.md')).length, 3);
		});

		it('a folder added to the window later brings its own files, under its own workspace id', async () => {
			const other = mkdtempSync(join(tmpdir(), 'gmem-instr-b-'));
			try {
				writeFileSync(join(other, 'CLAUDE.md'), '## Naming\nUse camelCase.\n');
				const otherId = workspaceId(other);
				await new InstructionFileSync({
					log,
					folders: () => [root],
					isTrusted: () => true,
					thresholds: () => DEFAULT_THRESHOLDS,
				}).folderAdded(store, other);
				assert.deepEqual(
					(await memoryState(store.db, [otherId])).profile.map((p) => p.key),
					[],
					'not before the first full read',
				);
				await sync.folderAdded(store, other);
				assert.deepEqual(
					(await memoryState(store.db, [otherId])).profile.map((p) => p.key),
					['file:CLAUDE.md § Naming'],
				);
				assert.ok(!(await memoryState(store.db, [ws])).profile.some((p) => p.key.startsWith('file:CLAUDE.md')));
			} finally {
				rmSync(other, { recursive: true, force: true });
			}
		});

		it('reads nothing in Restricted Mode', async () => {
			write('CLAUDE.md', '## Style\nUse tabs.\n');
			const untrusted = new InstructionFileSync({
				log,
				folders: () => [root],
				isTrusted: () => false,
				thresholds: () => DEFAULT_THRESHOLDS,
			});
			await untrusted.ensure(store);
			await untrusted.changed(store, root, 'CLAUDE.md');
			const keys = (await memoryState(store.db, [ws])).profile.map((p) => p.key);
			assert.ok(!keys.some((k) => k.startsWith('file:CLAUDE.md')), keys.join(', '));
			assert.deepEqual(warnings, []);
		});

		it("one unreadable file is that file's failure: logged, its entries and the others kept", async () => {
			rmSync(join(root, 'CLAUDE.md'), { force: true });
			mkdirSync(join(root, 'CLAUDE.md')); // a folder where the file should be: EISDIR on read
			const keysBefore = (await memoryState(store.db, [ws])).profile.map((p) => p.key);
			await sync.changed(store, root, 'CLAUDE.md');
			assert.equal(warnings.length, 1, warnings.join('\n'));
			assert.match(warnings[0]!, /^instruction files: CLAUDE\.md not read: EISDIR/);
			assert.deepEqual(
				(await memoryState(store.db, [ws])).profile.map((p) => p.key),
				keysBefore,
			);
			warnings.length = 0;
		});

		it('a store that fails is logged, never thrown to the caller', async () => {
			const broken = {
				...store,
				db: {
					...store.db,
					query: () => Promise.reject(new Error('connection lost')),
					transaction: () => Promise.reject(new Error('connection lost')),
				},
			} as unknown as Store;
			await new InstructionFileSync({
				log,
				folders: () => [root],
				isTrusted: () => true,
				thresholds: () => DEFAULT_THRESHOLDS,
			}).ensure(broken);
			assert.equal(warnings.length, 1, warnings.join('\n'));
			assert.match(warnings[0]!, /^instruction files of .* not synced: connection lost$/);
			warnings.length = 0;
		});
	});
}
