/**
 * Where a store folder's owner serves its database: a Unix socket inside the folder (mode 0600)
 * on Linux and macOS; on Windows, which has no Unix sockets for pglite-socket, a named pipe whose
 * name is derived from the folder, so every process that opens the folder finds the same pipe.
 * Windows is untested here (no Windows machine): only the choice of path is unit-tested.
 */
import { createHash } from 'node:crypto';
import { Socket } from 'node:net';
import { posix, win32 } from 'node:path';

/** The socket file pg finds with `{host: DIR, port: 5432}`. */
export const SOCKET_NAME = '.s.PGSQL.5432';

/** A Unix socket file in the store folder, or a Windows named pipe. */
export type OwnerEndpoint = { kind: 'unix'; path: string } | { kind: 'pipe'; path: string };

/** The endpoint of the owner of `dir` on `platform` (default: this one). */
export function ownerEndpoint(dir: string, platform: NodeJS.Platform = process.platform): OwnerEndpoint {
	if (platform !== 'win32') return { kind: 'unix', path: posix.join(dir, SOCKET_NAME) };
	// Windows paths are case-insensitive: C:\Store and c:\store are one folder, hence one pipe.
	const folder = win32.resolve(dir).toLowerCase();
	const hash = createHash('sha256').update(folder).digest('hex').slice(0, 16);
	return { kind: 'pipe', path: `\\\\.\\pipe\\gated-memory-${hash}` };
}

/**
 * A socket for `pg`'s `stream` option that connects to a named pipe: pg calls
 * `stream.connect(port, host)` for anything that is not a Unix socket folder, so the call is
 * redirected to the pipe.
 */
export function pipeStream(pipePath: string): () => Socket {
	return () => {
		const socket = new Socket();
		const connectTo = socket.connect.bind(socket);
		socket.connect = (() => connectTo({ path: pipePath })) as Socket['connect'];
		return socket;
	};
}
