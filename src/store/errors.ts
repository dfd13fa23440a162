/**
 * Why a store could not be opened or used. Each code maps to one clear message for the CLI (exit 2)
 * and the extension; none of these paths deletes or rewrites stored data.
 */
export type StoreErrorCode =
	| 'locked' // another live process owns the folder and did not answer on its socket
	| 'corrupt' // PGlite could not open the data folder
	| 'unreachable' // a server URL refused the connection / socket not answering
	| 'no-vector' // the server has no pgvector extension (or we may not create it)
	| 'newer-schema' // the database was written by a newer Gated Memory
	| 'migration-failed'
	| 'bad-scope' // the configured user/team scope is not a valid name
	| 'owner-failed'; // the owner child process could not start

/** A typed store failure; `code` lets callers branch without parsing messages. */
export class StoreError extends Error {
	constructor(
		readonly code: StoreErrorCode,
		message: string,
		options?: { cause?: unknown },
	) {
		super(message, options);
		this.name = 'StoreError';
	}
}

/** The message of any thrown value, for wrapping driver errors into StoreError. */
export function messageOf(e: unknown): string {
	return e instanceof Error ? e.message : String(e);
}
