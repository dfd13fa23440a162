/**
 * One resumable HTTP(S) file download in pure Node: bytes go to `<dest>.part`; an interrupted
 * download resumes with `Range: bytes=N-`; redirects are followed (the hub answers `resolve/` URLs
 * with a redirect to its CDN); SHA-256 is computed while streaming (over the resumed prefix too)
 * and checked against the expected value when there is one. Proxy-agnostic: pass any
 * `http.Agent` (the extension builds one from `http.proxy`).
 */
import { createHash, type Hash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, renameSync, rmSync, statSync } from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import { pipeline } from 'node:stream';
import { err, ok, type Result } from '../core/result';

/** Progress of one file. `total` is null when the server did not say. */
export interface FileProgress {
	url: string;
	received: number;
	total: number | null;
}

/** Why a download failed; `network` and `http` (5xx) failures keep the partial file for a resume. */
export interface DownloadError {
	code: 'network' | 'http' | 'checksum' | 'size' | 'cancelled' | 'io';
	message: string;
	/** HTTP status, when there was one. */
	status?: number;
}

/** Options for one download. */
export interface DownloadOptions {
	expectedSha256?: string;
	expectedSize?: number;
	agent?: http.Agent;
	headers?: Record<string, string>;
	signal?: AbortSignal;
	onProgress?: (p: FileProgress) => void;
	/** Give up when no byte arrives for this long (ms). */
	idleTimeoutMs?: number;
}

/** What a finished download produced. */
export interface DownloadedFile {
	path: string;
	bytes: number;
	sha256: string;
	/** Bytes that came from a previous, interrupted attempt. */
	resumedFrom: number;
	/** What the SHA-256 was checked against: the manifest, the hub's X-Linked-Etag, or nothing. */
	checkedAgainst: 'manifest' | 'hub' | 'none';
}

const MAX_REDIRECTS = 5;

/** Hashes an existing partial file so the final digest covers the whole file after a resume. */
async function hashPrefix(path: string): Promise<{ hash: Hash; size: number }> {
	const hash = createHash('sha256');
	if (!existsSync(path)) return { hash, size: 0 };
	await new Promise<void>((resolve, reject) => {
		createReadStream(path)
			.on('data', (c) => hash.update(c))
			.on('end', resolve)
			.on('error', reject);
	});
	return { hash, size: statSync(path).size };
}

/**
 * The hub names a large (LFS) file's SHA-256 in `X-Linked-Etag` on its `resolve/` answer (a
 * small file's ETag is a git blob id instead, which is not a SHA-256 and is ignored).
 */
function hubSha256(res: http.IncomingMessage): string | undefined {
	const raw = res.headers['x-linked-etag'];
	const tag = (Array.isArray(raw) ? raw[0] : raw)?.replace(/^W\//, '').replace(/"/g, '').toLowerCase();
	return tag && /^[0-9a-f]{64}$/.test(tag) ? tag : undefined;
}

type Opened = { res: http.IncomingMessage; url: string; hubSha256?: string };

/** GET with redirects; keeps the Range header across redirects. */
function open(
	url: string,
	headers: Record<string, string>,
	opts: DownloadOptions,
	hops = 0,
): Promise<Result<Opened, DownloadError>> {
	return new Promise((resolve) => {
		let u: URL;
		try {
			u = new URL(url);
		} catch {
			return resolve(err({ code: 'network', message: `invalid URL: ${url}` }));
		}
		const get = u.protocol === 'http:' ? http.get : https.get;
		const req = get(
			u,
			{ headers: { 'user-agent': 'gated-memory', ...headers }, agent: opts.agent, signal: opts.signal },
			(res) => {
				const status = res.statusCode ?? 0;
				if (status >= 300 && status < 400 && res.headers.location) {
					res.resume();
					if (hops >= MAX_REDIRECTS)
						return resolve(err({ code: 'http', status, message: `too many redirects from ${url}` }));
					const sha = hubSha256(res);
					const next = open(new URL(res.headers.location, u).toString(), headers, opts, hops + 1);
					return resolve(
						next.then((r) => (r.ok && sha && !r.value.hubSha256 ? ok({ ...r.value, hubSha256: sha }) : r)),
					);
				}
				resolve(ok({ res, url, hubSha256: hubSha256(res) }));
			},
		);
		req.setTimeout(opts.idleTimeoutMs ?? 30_000, () =>
			req.destroy(new Error(`no response within ${opts.idleTimeoutMs ?? 30_000} ms`)),
		);
		req.on('error', (e: NodeJS.ErrnoException) => {
			if (opts.signal?.aborted) return resolve(err({ code: 'cancelled', message: 'download cancelled' }));
			resolve(err({ code: 'network', message: `cannot reach ${u.origin} (${e.code ?? e.message})` }));
		});
	});
}

/** Streams the response body to `part`, appending or truncating; resolves when the body ended or failed. */
function pipeBody(
	res: http.IncomingMessage,
	part: string,
	append: boolean,
	hash: Hash,
	progress: (n: number) => void,
	opts: DownloadOptions,
): Promise<Result<void, DownloadError>> {
	return new Promise((resolve) => {
		res.setTimeout(opts.idleTimeoutMs ?? 30_000, () => res.destroy(new Error('connection stalled')));
		res.on('data', (chunk: Buffer) => {
			hash.update(chunk);
			progress(chunk.length);
		});
		const out = createWriteStream(part, { flags: append ? 'a' : 'w' });
		let writeError: Error | undefined;
		out.on('error', (e) => (writeError = e));
		pipeline(res, out, (e) => {
			if (!e) return resolve(ok(undefined));
			if (opts.signal?.aborted) return resolve(err({ code: 'cancelled', message: 'download cancelled' }));
			if (writeError) return resolve(err({ code: 'io', message: `cannot write ${part}: ${writeError.message}` }));
			resolve(err({ code: 'network', message: `connection lost: ${e.message}` }));
		});
	});
}

/**
 * Downloads `url` to `dest` (atomically renamed from `dest.part` when complete and verified).
 * A checksum or size mismatch deletes the partial file: resuming a corrupt prefix can never succeed.
 */
export async function downloadFile(
	url: string,
	dest: string,
	opts: DownloadOptions = {},
): Promise<Result<DownloadedFile, DownloadError>> {
	const part = `${dest}.part`;
	const prefix = await hashPrefix(part);
	const headers: Record<string, string> = { ...opts.headers };
	if (prefix.size > 0) headers.range = `bytes=${prefix.size}-`;
	const opened = await open(url, headers, opts);
	if (!opened.ok) return opened;
	const { res } = opened.value;
	const status = res.statusCode ?? 0;
	if (status === 416 && prefix.size > 0) {
		// The server says our prefix is already past the end: start over once.
		res.resume();
		rmSync(part, { force: true });
		return downloadFile(url, dest, opts);
	}
	if (status !== 200 && status !== 206) {
		res.resume();
		return err({ code: 'http', status, message: `HTTP ${status} for ${url}` });
	}
	const resumed = status === 206;
	const hash = resumed ? prefix.hash : createHash('sha256');
	let received = resumed ? prefix.size : 0;
	const length = Number(res.headers['content-length'] ?? NaN);
	const total = Number.isFinite(length) ? received + length : (opts.expectedSize ?? null);
	const piped = await pipeBody(
		res,
		part,
		resumed,
		hash,
		(n) => {
			received += n;
			opts.onProgress?.({ url, received, total });
		},
		opts,
	);
	if (!piped.ok) return piped;
	const expected = opts.expectedSha256
		? { sha: opts.expectedSha256, source: 'manifest' as const }
		: opened.value.hubSha256
			? { sha: opened.value.hubSha256, source: 'hub' as const }
			: undefined;
	return finish(part, dest, hash.digest('hex'), received, resumed ? prefix.size : 0, { ...opts, expected }, total);
}

type Expected = { sha: string; source: 'manifest' | 'hub' } | undefined;

function finish(
	part: string,
	dest: string,
	sha256: string,
	bytes: number,
	resumedFrom: number,
	opts: DownloadOptions & { expected: Expected },
	total: number | null,
): Result<DownloadedFile, DownloadError> {
	if (total !== null && bytes < total)
		return err({ code: 'network', message: `connection closed at ${bytes} of ${total} bytes` });
	if (opts.expectedSize !== undefined && bytes !== opts.expectedSize) {
		rmSync(part, { force: true });
		return err({ code: 'size', message: `size ${bytes} differs from the expected ${opts.expectedSize}` });
	}
	const expected = opts.expected;
	if (expected && sha256 !== expected.sha.toLowerCase()) {
		rmSync(part, { force: true });
		const by = expected.source === 'hub' ? 'the hub-reported' : 'the expected';
		return err({ code: 'checksum', message: `SHA-256 ${sha256} differs from ${by} ${expected.sha}` });
	}
	try {
		renameSync(part, dest);
	} catch (e) {
		return err({ code: 'io', message: `cannot move ${part} into place: ${(e as Error).message}` });
	}
	return ok({ path: dest, bytes, sha256, resumedFrom, checkedAgainst: expected?.source ?? 'none' });
}
