/**
 * Writing a batch of files so that one file's failure is that file's: the batch goes in as one
 * set-based upsert (the fast path, unchanged); if the database rejects it, the batch is written
 * again in one transaction with a SAVEPOINT per document, so every good document lands and each
 * one the database rejects is reported (`write_error`) and left out — its older stored copy is
 * removed too, so the store never keeps rows of a file the run could not write.
 *
 * Not a per-file failure: a lost connection or a cancelled run. Those still fail the batch (and the
 * run), and a failed ROLLBACK TO SAVEPOINT — the connection is gone — rethrows rather than
 * blaming every remaining file.
 */
import { deleteDocuments, upsertDocuments, type DocumentInput } from '../store/chunkRepo';
import type { Queryable, TxQueryable } from '../store/queryable';
import { isConnectionLost } from '../store/reconnecting';

/** A document the database refused, with its message. */
export interface WriteFailure {
	docId: string;
	error: string;
}

/** What an isolated write did. */
export interface IsolatedWriteOutcome {
	chunks: number;
	failed: WriteFailure[];
}

/** The store's write functions open their own transaction; inside ours they join it instead. */
export function joined(db: Queryable, tx: TxQueryable): Queryable {
	return {
		engine: db.engine,
		scope: db.scope,
		query: (sql, params) => tx.query(sql, params),
		transaction: (fn) => fn(tx),
		close: async () => undefined,
	};
}

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

// Cancellation and connection loss are the run's problem, not a file's.
function isRunFailure(e: unknown, signal?: AbortSignal): boolean {
	return !!signal?.aborted || (e instanceof Error && e.name === 'AbortError') || isConnectionLost(e);
}

/**
 * Upserts `docs` after `prelude` (e.g. the batch's deletions), all in one transaction; on a
 * database error, retries with one savepoint per document (the prelude again first).
 */
export async function upsertIsolated(
	db: Queryable,
	docs: readonly DocumentInput[],
	prelude?: (db: Queryable) => Promise<void>,
	signal?: AbortSignal,
): Promise<IsolatedWriteOutcome> {
	if (!docs.length && !prelude) return { chunks: 0, failed: [] };
	try {
		const chunks = prelude
			? await db.transaction(async (tx) => {
					const j = joined(db, tx);
					await prelude(j);
					return upsertDocuments(j, docs);
				})
			: await upsertDocuments(db, docs);
		return { chunks, failed: [] };
	} catch (e) {
		if (isRunFailure(e, signal) || docs.length === 0) throw e;
	}
	return db.transaction(async (tx) => {
		const j = joined(db, tx);
		if (prelude) await prelude(j);
		const out: IsolatedWriteOutcome = { chunks: 0, failed: [] };
		for (const doc of docs) {
			signal?.throwIfAborted();
			await tx.query('SAVEPOINT gmem_file');
			try {
				out.chunks += await upsertDocuments(j, [doc]);
				await tx.query('RELEASE SAVEPOINT gmem_file');
			} catch (e) {
				if (isRunFailure(e, signal)) throw e;
				await tx.query('ROLLBACK TO SAVEPOINT gmem_file');
				await deleteDocuments(j, { scope: doc.scope, workspaceId: doc.workspaceId, tier: doc.tier, docId: doc.docId });
				out.failed.push({ docId: doc.docId, error: messageOf(e) });
			}
		}
		return out;
	});
}
