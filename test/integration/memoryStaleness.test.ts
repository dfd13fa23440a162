/**
 * Staleness on both engines, with the real indexer (worker thread), the real store and recall: a
 * research memory that cites code (Remember Selection's path: rememberNote with a line range) is
 * checked before use. Unchanged → used, with a "why recalled" note; the function moved within
 * its file → re-anchored and used; the function edited → not used, "stale" in the trace and in the
 * review list; renamed → stale (gone); its file deleted → stale (gone).
 */
import type { Result } from '../../src/core/result';
import assert from 'node:assert/strict';
import { unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_THRESHOLDS } from '../../src/core/thresholds';
import type { TraceStep } from '../../src/core/trace';
import type { GateResult } from '../../src/core/types';
import { freshRecall } from '../../src/chat/memoryFreshness';
import { rememberNote } from '../../src/chat/rememberCode';
import { keepMemory, updateMemory } from '../../src/chat/staleReview';
import { storeMemory } from '../../src/chat/turnStore';
import type { WorkspaceMemory } from '../../src/chat/workspaceMemory';
import { demotedMemories, staleMemories, touchRecalled } from '../../src/store/anchorRepo';
import { testEngines } from '../fixtures/store_engines';
import { memoryWorkspace, type MemoryWorkspace } from '../fixtures/memoryChat';

/** A port's Result, unwrapped: an err fails the test with its message. */
function unwrap<T>(r: Result<T>): T {
	if (!r.ok) throw new Error(`port returned err: ${r.error}`);
	return r.value;
}

const RESULT = { policy: { qa_k: 3, qa_min_similarity: 0 } } as unknown as GateResult;
const notes = (steps: TraceStep[], stage?: string) =>
	steps.flatMap((s) => (s.kind === 'note' && (stage === undefined || s.stage === stage) ? [s.message] : []));

/** Two functions of 10+ lines each, so the chunker keeps them apart (index_chunk_min_lines 8). */
const BILLING = (body: string, pad = '') =>
	`${pad}export function computeInvoiceTotal(lines: { cents: number; qty: number }[]): number {\n${body}\n}\n\n` +
	`export function formatCents(cents: number): string {\n\tconst sign = cents < 0 ? '-' : '';\n\tconst abs = Math.abs(cents);\n\tconst whole = Math.floor(abs / 100);\n\tconst frac = abs % 100;\n\tconst padded = frac < 10 ? \`0\${frac}\` : String(frac);\n\tconst grouped = whole.toLocaleString('en-US');\n\tconst text = \`\${sign}\${grouped}.\${padded}\`;\n\treturn text;\n}\n`;
/** A function of its own above the others: they move down, their text unchanged. */
const PAD = `export function currencyOf(code: string): string {\n\tswitch (code) {\n\t\tcase 'EUR':\n\t\t\treturn '€';\n\t\tcase 'USD':\n\t\t\treturn '$';\n\t\tdefault:\n\t\t\treturn code;\n\t}\n}\n\n`;
const ORIGINAL_BODY =
	'\tlet total = 0;\n\tfor (const l of lines) {\n\t\tif (l.qty <= 0) continue;\n\t\tconst line = l.cents * l.qty;\n\t\ttotal += line;\n\t}\n\t// integer cents all the way\n\treturn total;';

for (const engine of testEngines())
	describe(`memory staleness (${engine.name})`, function () {
		this.timeout(180_000);
		let w: MemoryWorkspace;
		let ws: string;
		let memory: WorkspaceMemory;
		let ids: () => string[];
		const file = () => join(ws, 'src', 'billing.ts');

		/** How often recall reported a memory newly marked stale (what refreshes an open Inspect Memory State). */
		let changes = 0;
		const port = () =>
			freshRecall(
				storeMemory({ openStore: () => memory.openStore(), embedder: () => memory.embedder(), workspaceIds: ids }),
				{ openStore: () => memory.openStore(), workspaceIds: ids, onMemoryChange: () => changes++ },
			);
		const recall = async () =>
			unwrap(await port().recall('invoice total rounding cents', ['research'], RESULT, DEFAULT_THRESHOLDS));
		const remember = async (turnId: string, text: string, startLine: number, endLine: number) => {
			const store = await memory.openStore();
			return rememberNote(store.db, await memory.embedder(), DEFAULT_THRESHOLDS, {
				workspaceId: ids()[0],
				turnId,
				text,
				as: 'research',
				from: { path: 'src/billing.ts', startLine, endLine },
			});
		};
		const reindex = async () => {
			await memory.indexFolders([ws]);
		};

		before(async () => {
			w = await memoryWorkspace(engine, {
				prefix: 'gmem-stale-',
				files: { 'src/billing.ts': BILLING(ORIGINAL_BODY) },
				index: true,
			});
			({ memory, ids, ws } = w);
		});
		after(async () => {
			await w?.close();
		});

		it('anchors a remembered selection to the chunk covering it (symbol, lines, content hash)', async () => {
			const out = await remember('m1', 'Invoice totals are summed in integer cents; never round per line.', 2, 8);
			assert.equal(out.report.research?.action, 'inserted');
			assert.equal(out.anchors.length, 1, JSON.stringify(out.anchors));
			assert.equal(out.anchors[0].path, 'src/billing.ts');
			assert.equal(out.anchors[0].symbol, 'computeInvoiceTotal');
			assert.match(out.anchors[0].contentHash ?? '', /^[0-9a-f]{16,}$/);
		});

		it('unchanged code: the memory is used, with why it was recalled (arm, score, age, source turn)', async () => {
			const r = await recall();
			assert.ok(
				r.chunks.some((c) => /integer cents/.test(c.text)),
				JSON.stringify(r.chunks.map((c) => c.text)),
			);
			const why = notes(r.steps, 'recall').find((m) => /^recalled memory:m1:/.test(m));
			assert.ok(why, notes(r.steps).join(' | '));
			assert.match(why, /for "invoice total rounding cents": found by (full-text #\d|vector #\d)/);
			assert.match(why, /written \d{4}-\d\d-\d\d \(today\) in turn m1/);
			assert.ok(!notes(r.steps, 'staleness').some((m) => /^stale memory/.test(m)), notes(r.steps).join(' | '));
			assert.ok(notes(r.steps, 'staleness').some((m) => /^staleness check: 1 memory citing code, \d+\.\d ms$/.test(m)));
			const store = await memory.openStore();
			const [row] = await store.db.query<{ t: string | null }>(
				`SELECT last_recalled_at::text AS t FROM research_memory WHERE doc_id LIKE 'memory:m1:%'`,
			);
			assert.ok(row.t !== null, 'recall time recorded');
		});

		it('the function moved within its file: re-anchored at its new lines and still used', async () => {
			writeFileSync(file(), BILLING(ORIGINAL_BODY, PAD));
			await reindex();
			const r = await recall();
			assert.ok(
				r.chunks.some((c) => /integer cents/.test(c.text)),
				'still used',
			);
			assert.ok(
				notes(r.steps, 'staleness').some((m) =>
					/moved to src\/billing\.ts:\d+-\d+ \(computeInvoiceTotal\) \(re-anchored\)/.test(m),
				),
				notes(r.steps).join(' | '),
			);
			const store = await memory.openStore();
			const [a] = await store.db.query<{ start_line: number; review: string }>(
				`SELECT start_line, review FROM memory_anchors ORDER BY id LIMIT 1`,
			);
			assert.ok(a.start_line > 1, `anchor start line ${a.start_line}`);
			assert.equal(a.review, 'current');
			// A second recall finds it current (no move reported again).
			const again = await recall();
			assert.ok(!notes(again.steps, 'staleness').some((m) => /moved/.test(m)));
		});

		it('the cited function edited: not used as current, stale in the trace and in the review list', async () => {
			writeFileSync(
				file(),
				BILLING('\treturn Math.round(lines.reduce((n, l) => n + (l.cents * l.qty) / 100, 0) * 100);'),
			);
			await reindex();
			const before = changes;
			const r = await recall();
			assert.equal(changes, before + 1, 'newly stale: the open panel is told');
			assert.ok(!r.chunks.some((c) => /integer cents/.test(c.text)), 'a stale memory is not evidence');
			await recall();
			assert.equal(changes, before + 1, 'already marked stale: not told again');
			const stale = notes(r.steps, 'staleness').find((m) => /^stale memory memory:m1:/.test(m));
			assert.ok(stale, notes(r.steps).join(' | '));
			assert.match(stale, /computeInvoiceTotal\) changed since the memory was written/);
			const store = await memory.openStore();
			const review = await staleMemories(store.db, ids());
			assert.equal(review.length, 1);
			assert.match(review[0].content, /integer cents/);
			assert.equal(review[0].symbol, 'computeInvoiceTotal');
		});

		it('review: Keep follows the code as it is now; Update supersedes the memory with the new text, anchored', async () => {
			const store = await memory.openStore();
			const [m1] = await staleMemories(store.db, ids());
			const kept = await keepMemory(store.db, ids()[0], m1.doc_id);
			assert.match(kept, /^Kept the memory: 1 anchor moved to the current code\.$/);
			assert.equal((await staleMemories(store.db, ids())).length, 0);
			const r = await recall();
			assert.ok(
				r.chunks.some((c) => /integer cents/.test(c.text)),
				'a kept memory is used again',
			);
			// The code changes again: stale again, then updated.
			writeFileSync(
				file(),
				BILLING(
					'\treturn lines.reduce((n, l) => n + l.cents * l.qty, 0);\n\t// one pass, still integer cents\n\t// (no per-line rounding)\n\t// checked by billing.test.ts\n\t// keep it that way\n\t//\n\t//',
				),
			);
			await reindex();
			await recall();
			const [again] = await staleMemories(store.db, ids());
			assert.equal(again?.doc_id, m1.doc_id);
			const updated = await updateMemory(
				store.db,
				await memory.embedder(),
				DEFAULT_THRESHOLDS,
				ids()[0],
				m1.doc_id,
				'Invoice totals: one reduce over integer cents, no per-line rounding.',
			);
			assert.match(updated, /^Updated: memory:review:[a-z0-9]+:[0-9a-f]{8} inserted, superseding memory:m1:/);
			const after = await recall();
			assert.ok(
				after.chunks.some((c) => /one reduce over integer cents/.test(c.text)),
				JSON.stringify(after.chunks.map((c) => c.text)),
			);
			assert.ok(!after.chunks.some((c) => /never round per line/.test(c.text)), 'the superseded text is not recalled');
			assert.ok(
				!notes(after.steps, 'staleness').some((m) => /^stale memory/.test(m)),
				'the update is anchored to the current code',
			);
		});

		it('the cited function renamed: stale (the symbol is gone)', async () => {
			writeFileSync(file(), BILLING(ORIGINAL_BODY));
			await reindex();
			const m2 = await remember('m2', 'formatCents always prints two decimals for invoice totals.', 15, 20);
			assert.equal(m2.anchors[0]?.symbol, 'formatCents', JSON.stringify(m2.anchors));
			writeFileSync(file(), BILLING(ORIGINAL_BODY).replace('formatCents', 'formatAmount'));
			await reindex();
			const r = unwrap(
				await port().recall('formatCents decimals invoice totals', ['research'], RESULT, DEFAULT_THRESHOLDS),
			);
			const stale = notes(r.steps, 'staleness').find((m) => /^stale memory memory:m2:/.test(m));
			assert.ok(stale, notes(r.steps).join(' | '));
			assert.match(stale, /formatCents is no longer in src\/billing\.ts \(renamed or removed\)/);
			assert.ok(!r.chunks.some((c) => /two decimals/.test(c.text)));
		});

		it('decay (off by default): a memory idle for decayDays is demoted from recall, kept and listed; Restore brings it back', async () => {
			const store = await memory.openStore();
			const note = await rememberNote(store.db, await memory.embedder(), DEFAULT_THRESHOLDS, {
				workspaceId: ids()[0],
				turnId: 'd1',
				text: 'Deploys are frozen on Fridays after 15:00 UTC.',
				as: 'research',
			});
			const docId = note.report.research!.doc_id;
			await store.db.query(
				`UPDATE research_memory SET updated_at = now() - interval '40 days', last_recalled_at = NULL WHERE doc_id = $1`,
				[docId],
			);
			let days = 0;
			const decaying = freshRecall(
				storeMemory({ openStore: () => memory.openStore(), embedder: () => memory.embedder(), workspaceIds: ids }),
				{ openStore: () => memory.openStore(), workspaceIds: ids, decayDays: () => days },
			);
			const ask = async () =>
				unwrap(await decaying.recall('deploys frozen fridays', ['research'], RESULT, DEFAULT_THRESHOLDS));
			// Off: used as before.
			assert.ok((await ask()).chunks.some((c) => /frozen on Fridays/.test(c.text)));
			await store.db.query(
				`UPDATE research_memory SET last_recalled_at = now() - interval '40 days' WHERE doc_id = $1`,
				[docId],
			);
			days = 30;
			const r = await ask();
			assert.ok(!r.chunks.some((c) => /frozen on Fridays/.test(c.text)), 'demoted from recall');
			assert.ok(
				notes(r.steps, 'decay').some(
					(m) =>
						m ===
						`memory ${docId} demoted: not recalled for 40 days (gatedMemory.memory.decayDays 30); kept, listed in Inspect Memory State`,
				),
				notes(r.steps).join(' | '),
			);
			const listed = await demotedMemories(store.db, ids(), 30);
			assert.deepEqual(
				listed.map((m) => [m.doc_id, m.idle_days]),
				[[docId, 40]],
			);
			const [{ n }] = await store.db.query<{ n: number }>(
				'SELECT count(*)::int AS n FROM research_memory WHERE doc_id = $1',
				[docId],
			);
			assert.equal(n, 1, 'nothing deleted');
			await touchRecalled(store.db, ids(), [docId]);
			assert.ok(
				(await ask()).chunks.some((c) => /frozen on Fridays/.test(c.text)),
				'restored',
			);
			assert.equal((await demotedMemories(store.db, ids(), 30)).length, 0);
		});

		it('the file deleted: stale (gone from the index)', async () => {
			unlinkSync(file());
			await reindex();
			const r = await recall();
			const stale = notes(r.steps, 'staleness').filter((m) => /^stale memory /.test(m));
			assert.ok(stale.length >= 1, notes(r.steps).join(' | '));
			assert.ok(
				stale.every((m) => /src\/billing\.ts is no longer in the index/.test(m)),
				stale.join(' | '),
			);
			assert.equal(r.chunks.filter((c) => c.source === 'research').length, 0, 'no stale memory used');
		});
	});
