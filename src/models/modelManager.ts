/**
 * Finds model folders and downloads missing models on first use. Lookup order: the user's local
 * model folder (`<local>/<repo>` or `<local>/<name>`), then the cache
 * (`<cache>/<repo>/<revision>/`, complete only with its `.complete.json` marker), then a download
 * from the hub endpoint (default https://huggingface.co, any mirror with the same
 * `/{repo}/resolve/{revision}/{file}` layout) — only with consent. Downloads land in a `.partial`
 * folder, resume after interruptions, are checked (SHA-256 when the manifest has one; always:
 * loads as ONNX with the expected names and dimension) and are then moved into place. Pure Node.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { Agent } from 'node:http';
import { join } from 'node:path';
import { err, ok, type Result } from '../core/result';
import { downloadFile, type DownloadedFile, type DownloadError } from './download';
import type { LoadedModelInfo, ModelError } from './inferenceProtocol';
import { specFor, type ModelLocator } from './lazyModel';
import { UNVERIFIED, type ModelFile, type ModelFileRole, type ModelManifest } from './manifests';
import { LoadedModel } from './onnxRuntime';

/** The default hub; mirrors and air-gapped servers with the same layout can replace it. */
export const DEFAULT_HUB = 'https://huggingface.co';

/** Download progress across a model's files. */
export interface ModelProgress {
	model: string;
	file: string;
	/** Bytes of this file so far, and its size when known. */
	received: number;
	total: number | null;
	/** Index of the file among the model's files (1-based) and their count. */
	index: number;
	count: number;
}

/** Checks that a folder holds a loadable model matching the manifest. */
export type ModelValidator = (manifest: ModelManifest, dir: string) => Promise<Result<LoadedModelInfo, ModelError>>;

/** Configuration; everything but `cacheDir` is optional. */
export interface ModelManagerOptions {
	/** Where downloads are cached (the extension passes its global storage). */
	cacheDir: string;
	/** Hub base URL (setting); trailing slashes are ignored. */
	hubEndpoint?: string;
	/** A folder with models the user placed there (setting); checked before the cache. */
	localModelDir?: string;
	/**
	 * Asked once per model before the first download; false refuses. Without it, downloads happen
	 * only when `allowDownload` is true (the CLI's explicit flag), so nothing is fetched silently.
	 */
	confirmDownload?: (manifest: ModelManifest) => Promise<boolean>;
	allowDownload?: boolean;
	/** Proxy-aware agent (the extension builds one from `http.proxy`). */
	agent?: Agent;
	onProgress?: (p: ModelProgress) => void;
	/** How a downloaded folder is checked; defaults to loading it in-process (see docs/models.md). */
	validate?: ModelValidator;
	/** Resume attempts per file after a cut connection. */
	retries?: number;
	/** A connection that delivers no byte for this long is dropped and resumed (ms, default 30 s). */
	idleTimeoutMs?: number;
}

/** Where a model currently is. */
export type ModelStatus = { where: 'local' | 'cache'; dir: string } | { where: 'absent' };

const MARKER = '.complete.json';

/** What the cache marker records per file. */
export interface FileRecord {
	sha256: string;
	size: number;
	checkedAgainst: DownloadedFile['checkedAgainst'];
}
const ORDER: ModelFileRole[] = ['config', 'tokenizerConfig', 'tokenizer', 'onnx'];

/** Loads the folder in-process with onnxruntime and releases it again. */
export const inProcessValidator: ModelValidator = async (manifest, dir) => {
	const r = await LoadedModel.load(specFor(manifest, dir), { intraOpThreads: 1, batchSize: 1 });
	if (!r.ok) return r;
	await r.value.release();
	return ok(r.value.info);
};

/** Resolves, downloads and verifies models; one instance per cache folder. */
export class ModelManager {
	private readonly inflight = new Map<string, Promise<Result<string, ModelError>>>();
	private readonly hub: string;

	constructor(private readonly options: ModelManagerOptions) {
		this.hub = (options.hubEndpoint ?? DEFAULT_HUB).replace(/\/+$/, '');
	}

	/** URL of one file on the hub (or mirror). */
	fileUrl(manifest: ModelManifest, file: ModelFile): string {
		const path = file.path.split('/').map(encodeURIComponent).join('/');
		return `${this.hub}/${manifest.repo}/resolve/${encodeURIComponent(manifest.revision)}/${path}`;
	}

	/** The cache folder of a model (complete or not). */
	cacheFolder(manifest: ModelManifest): string {
		return join(this.options.cacheDir, ...manifest.repo.split('/'), manifest.revision);
	}

	/** Where the model is now, without downloading anything. */
	status(manifest: ModelManifest): ModelStatus {
		const local = this.options.localModelDir;
		if (local) {
			for (const dir of [join(local, ...manifest.repo.split('/')), join(local, manifest.name)]) {
				if (hasAllFiles(manifest, dir)) return { where: 'local', dir };
			}
		}
		const cached = this.cacheFolder(manifest);
		if (existsSync(join(cached, MARKER)) && hasAllFiles(manifest, cached)) return { where: 'cache', dir: cached };
		return { where: 'absent' };
	}

	/** A locator for LazyModel: local folder, cache, or download (with consent). */
	locator(manifest: ModelManifest): ModelLocator {
		return (signal) => this.locate(manifest, signal);
	}

	/** Returns the model's folder, downloading it first if needed and allowed. Concurrent calls share one download. */
	locate(manifest: ModelManifest, signal?: AbortSignal): Promise<Result<string, ModelError>> {
		const st = this.status(manifest);
		if (st.where !== 'absent') return Promise.resolve(ok(st.dir));
		const key = `${manifest.repo}@${manifest.revision}`;
		let p = this.inflight.get(key);
		if (!p) {
			p = this.consentAndDownload(manifest, signal).finally(() => this.inflight.delete(key));
			this.inflight.set(key, p);
		}
		return p;
	}

	private async consentAndDownload(manifest: ModelManifest, signal?: AbortSignal): Promise<Result<string, ModelError>> {
		const allowed = this.options.confirmDownload
			? await this.options.confirmDownload(manifest)
			: this.options.allowDownload === true;
		if (!allowed)
			return err({ code: 'refused', message: `${manifest.name} is not downloaded and downloading was not allowed` });
		return this.download(manifest, signal);
	}

	/** Downloads every file of the model, verifies it, and moves it into the cache. */
	async download(manifest: ModelManifest, signal?: AbortSignal): Promise<Result<string, ModelError>> {
		const final = this.cacheFolder(manifest);
		const partial = `${final}.partial`;
		const record: Record<string, FileRecord> = {};
		for (const [i, role] of ORDER.entries()) {
			const file = manifest.files[role];
			const dest = join(partial, ...file.path.split('/'));
			if (existsSync(dest)) {
				// Finished in an earlier, interrupted run: hash it again for the record.
				record[file.path] = {
					sha256: createHash('sha256').update(readFileSync(dest)).digest('hex'),
					size: statSync(dest).size,
					checkedAgainst: 'none',
				};
				continue;
			}
			mkdirSync(join(dest, '..'), { recursive: true });
			const r = await this.fetchWithRetries(manifest, file, dest, i + 1, signal);
			if (!r.ok) return err(toModelError(r.error, this.fileUrl(manifest, file)));
			record[file.path] = { sha256: r.value.sha256, size: r.value.bytes, checkedAgainst: r.value.checkedAgainst };
		}
		const check = await (this.options.validate ?? inProcessValidator)(manifest, partial);
		if (!check.ok) {
			// A folder that does not load is useless to resume: drop it so the next try starts clean.
			rmSync(partial, { recursive: true, force: true });
			return err({ code: 'invalid', message: `downloaded ${manifest.name} was refused: ${check.error.message}` });
		}
		return this.commit(manifest, partial, final, record);
	}

	private async fetchWithRetries(
		manifest: ModelManifest,
		file: ModelFile,
		dest: string,
		index: number,
		signal?: AbortSignal,
	): Promise<Result<DownloadedFile, DownloadError>> {
		const url = this.fileUrl(manifest, file);
		const tries = 1 + (this.options.retries ?? 3);
		let last: Result<DownloadedFile, DownloadError> = err({ code: 'network', message: 'not attempted' });
		for (let t = 0; t < tries; t++) {
			last = await downloadFile(url, dest, {
				agent: this.options.agent,
				signal,
				idleTimeoutMs: this.options.idleTimeoutMs,
				expectedSha256: file.sha256 === UNVERIFIED ? undefined : file.sha256,
				expectedSize: file.size === UNVERIFIED ? undefined : file.size,
				onProgress: (p) =>
					this.options.onProgress?.({
						model: manifest.name,
						file: file.path,
						received: p.received,
						total: p.total,
						index,
						count: ORDER.length,
					}),
			});
			// Only a cut connection or a server hiccup is worth resuming; refusals and checksum errors are final.
			const retryable =
				!last.ok && (last.error.code === 'network' || (last.error.code === 'http' && (last.error.status ?? 0) >= 500));
			if (last.ok || !retryable || signal?.aborted) break;
		}
		return last;
	}

	/** Moves the checked folder into place and writes the marker with each file's measured size and SHA-256 (the values a manifest can be pinned to). */
	private commit(
		manifest: ModelManifest,
		partial: string,
		final: string,
		files: Record<string, FileRecord>,
	): Result<string, ModelError> {
		try {
			rmSync(final, { recursive: true, force: true });
			renameSync(partial, final);
			writeFileSync(
				join(final, MARKER),
				JSON.stringify(
					{ repo: manifest.repo, revision: manifest.revision, files, at: new Date().toISOString() },
					null,
					1,
				),
			);
		} catch (e) {
			return err({
				code: 'download-failed',
				message: `cannot move ${manifest.name} into the cache: ${(e as Error).message}`,
			});
		}
		return ok(final);
	}

	/** Reads the marker of a cached model (for diagnostics); undefined when not cached. */
	cachedInfo(manifest: ModelManifest): unknown {
		const marker = join(this.cacheFolder(manifest), MARKER);
		return existsSync(marker) ? (JSON.parse(readFileSync(marker, 'utf8')) as unknown) : undefined;
	}
}

function hasAllFiles(manifest: ModelManifest, dir: string): boolean {
	return ORDER.every((r) => existsSync(join(dir, ...manifest.files[r].path.split('/'))));
}

function toModelError(e: DownloadError, url: string): ModelError {
	if (e.code === 'cancelled') return { code: 'cancelled', message: e.message };
	if (e.code === 'network') {
		return {
			code: 'download-failed',
			message: `${e.message} while downloading ${url}. Check the network or proxy, set a mirror as the hub endpoint, or put the model files in the local model folder.`,
		};
	}
	if (e.code === 'checksum' || e.code === 'size')
		return { code: 'download-failed', message: `${url}: ${e.message}; the file was deleted` };
	return { code: 'download-failed', message: `${url}: ${e.message}` };
}
