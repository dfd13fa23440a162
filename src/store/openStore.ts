/**
 * Opening a store: a folder goes through its single owner (started on demand in a child
 * process), a URL through a `pg` pool; both are then migrated and used with the same SQL.
 */
import { err, ok, type Result } from '../core/result';
import { ensureVectorIndex } from './chunkRepo';
import { StoreError, messageOf } from './errors';
import type { StoreLocation } from './location';
import { migrate } from './migrations';
import { connectToOwner } from './ownerClient';
import { reconnecting } from './reconnecting';
import { connectPg, redactUrl } from './pgQueryable';
import { DEFAULT_SCOPE, withScope, type EngineKind, type Queryable } from './queryable';
import { scopeNameError } from './location';
import { SEARCH_SESSION_SQL, SEARCH_SETTINGS } from './searchQueries';

/** An open, migrated store. */
export interface Store {
	readonly db: Queryable;
	readonly engine: EngineKind;
	/** The folder, or the URL without its password. */
	readonly where: string;
	readonly folder: string | null;
	readonly schemaVersion: number;
	/** The user/team scope every statement through `db` reads and writes. */
	readonly scope: string;
	close(): Promise<void>;
}

/** Options for openStore; `ownerTimeoutMs` bounds the wait for a folder's owner. */
export interface OpenOptions {
	ownerTimeoutMs?: number;
}

/** Opens and migrates the store; every expected failure is a StoreError value, never a throw. */
export async function openStore(
	location: StoreLocation,
	options: OpenOptions = {},
): Promise<Result<Store, StoreError>> {
	let db: Queryable | null = null;
	const scope = location.scope ?? DEFAULT_SCOPE;
	const badScope = scopeNameError(scope);
	if (badScope) return err(new StoreError('bad-scope', badScope));
	try {
		db =
			location.kind === 'url' ? await openServer(location.url) : await openFolder(location.dir, options.ownerTimeoutMs);
		const schemaVersion = await migrate(db);
		await ensureVectorIndex(db);
		// PGlite has one session shared by every socket client; a server pool sets it per connection.
		if (db.engine !== 'postgres') await db.query(SEARCH_SESSION_SQL);
		if ('registerVectorType' in db && typeof db.registerVectorType === 'function') await db.registerVectorType();
		const opened = withScope(db, scope);
		return ok({
			db: opened,
			scope,
			engine: opened.engine,
			where: location.kind === 'url' ? redactUrl(location.url) : location.dir,
			folder: location.kind === 'folder' ? location.dir : null,
			schemaVersion,
			close: () => opened.close(),
		});
	} catch (e) {
		if (db) await db.close().catch((closeError: unknown) => void closeError); // the open error is the one to report
		return err(e instanceof StoreError ? e : new StoreError('unreachable', messageOf(e), { cause: e }));
	}
}

async function openFolder(dir: string, timeoutMs: number | undefined): Promise<Queryable> {
	// A new owner is a new PGlite session: its session settings must be set again.
	return reconnecting(
		dir,
		await connectToOwner(dir, timeoutMs),
		(q) => q.query(SEARCH_SESSION_SQL).then(() => undefined),
		timeoutMs,
	);
}

async function openServer(url: string): Promise<Queryable> {
	return connectPg({ url, settings: { ...SEARCH_SETTINGS } });
}
