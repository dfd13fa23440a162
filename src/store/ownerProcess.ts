/**
 * Child-process entry of the store owner (built to dist/storeOwner.js). PGlite is Postgres in
 * WebAssembly and index builds are CPU work, so it never runs on the extension host's or the
 * CLI's main thread. Protocol over the IPC channel: one message, `{type: 'ready', socketPath}` or
 * `{type: 'error', code, message}`; then the parent disconnects and talks SQL over the socket.
 *
 * argv: STORE_DIR. env: GMEM_OWNER_PARENT (pid to outlive), GMEM_OWNER_LINGER_MS (default 3000).
 */
import { StoreError, messageOf, type StoreErrorCode } from './errors';
import { startOwner, waitUntilIdle } from './owner';

/** Messages the owner sends its parent. */
export type OwnerMessage =
	{ type: 'ready'; socketPath: string; pid: number } | { type: 'error'; code: StoreErrorCode; message: string };

function send(msg: OwnerMessage): void {
	if (process.send) process.send(msg);
	else process.stderr.write(JSON.stringify(msg) + '\n');
}

async function main(): Promise<void> {
	const dir = process.argv[2];
	if (!dir) throw new StoreError('owner-failed', 'usage: storeOwner STORE_DIR');
	const parent = Number(process.env.GMEM_OWNER_PARENT) || null;
	const linger = Number(process.env.GMEM_OWNER_LINGER_MS ?? 3000);
	const owner = await startOwner(dir);
	const stop = () => void owner.shutdown().then(() => process.exit(0));
	process.on('SIGTERM', stop);
	process.on('SIGINT', stop);
	send({ type: 'ready', socketPath: owner.socketPath, pid: process.pid });
	if (process.connected) process.disconnect();
	await waitUntilIdle(owner, parent, linger);
	await owner.shutdown();
}

main().then(
	() => process.exit(0),
	(e: unknown) => {
		const code: StoreErrorCode = e instanceof StoreError ? e.code : 'owner-failed';
		send({ type: 'error', code, message: messageOf(e) });
		process.stderr.write(`store owner: ${messageOf(e)}\n`);
		process.exitCode = 1;
		if (process.connected) process.disconnect();
	},
);
