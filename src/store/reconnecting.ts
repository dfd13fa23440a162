/**
 * A folder store's connection that survives its owner: when the owner process dies (killed, or a
 * window that owned the store closed while another still used it), the next statement starts or
 * finds a new owner and runs again. Only connection loss is retried, once; SQL errors pass through.
 */
import { messageOf } from './errors';
import { connectToOwner } from './ownerClient';
import type { Queryable, Row, TxQueryable } from './queryable';

const LOST = /ECONNREFUSED|ENOENT|ECONNRESET|EPIPE|Connection terminated|connection error|not queryable/i;

/** True for errors that mean the socket or the owner went away (not an SQL error). */
export function isConnectionLost(e: unknown): boolean {
	const code = (e as NodeJS.ErrnoException | undefined)?.code;
	return (typeof code === 'string' && LOST.test(code)) || LOST.test(messageOf(e));
}

/**
 * Wraps the connection to `dir`'s owner. `onReconnect` re-applies session settings. A
 * transaction cut by the owner's death was never committed (the owner's PGlite died with it), so
 * running it again is safe for the store's writes, which replace by id.
 */
export function reconnecting(
	dir: string,
	first: Queryable,
	onReconnect: (q: Queryable) => Promise<void>,
	timeoutMs?: number,
): Queryable {
	let current = first;
	let reopening: Promise<void> | null = null;
	const reopen = () =>
		(reopening ??= (async () => {
			await current.close().catch((closeError: unknown) => void closeError); // the old pool is already broken
			current = await connectToOwner(dir, timeoutMs);
			await onReconnect(current);
		})().finally(() => {
			reopening = null;
		}));
	const retry = async <T>(run: () => Promise<T>): Promise<T> => {
		try {
			return await run();
		} catch (e) {
			if (!isConnectionLost(e)) throw e;
			await reopen();
			return run();
		}
	};
	return {
		get engine() {
			return current.engine;
		},
		query: <T extends object = Row>(sql: string, params?: readonly unknown[]) =>
			retry(() => current.query<T>(sql, params)),
		transaction: <T>(fn: (tx: TxQueryable) => Promise<T>) => retry(() => current.transaction(fn)),
		close: () => current.close(),
	};
}
