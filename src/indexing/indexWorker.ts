/**
 * Worker-thread entry (bundled to dist/indexWorker.js): runs the Indexer off the host's main
 * thread. Opens the store like every other client (the owner's socket, or a server URL), answers
 * IndexRequest messages, streams progress, and honours cancellation per request.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { resolveThresholds } from '../core/thresholds';
import { openStore } from '../store/openStore';
import { Indexer } from './indexer';
import type { IndexReply, IndexRequest, IndexWorkerConfig } from './indexWorkerProtocol';
import { buildWorkerEmbedder } from './workerEmbedder';

async function main(port: NonNullable<typeof parentPort>, config: IndexWorkerConfig): Promise<void> {
	const thresholds = resolveThresholds(config.thresholds ?? {});
	if (!thresholds.ok) throw new Error(thresholds.error.join('; '));
	const opened = await openStore(config.store);
	if (!opened.ok) throw new Error(`cannot open the store (${opened.error.code}): ${opened.error.message}`);
	const indexer = new Indexer({
		db: opened.value.db,
		embedder: await buildWorkerEmbedder(
			typeof config.embedder === 'string' ? { kind: config.embedder } : config.embedder,
		),
		thresholds: thresholds.value,
		excludes: config.excludes ?? [],
		followSymlinks: config.followSymlinks ?? false,
	});
	const running = new Map<number, AbortController>();
	const send = (m: IndexReply) => port.postMessage(m);
	port.on('message', (m: IndexRequest) => {
		if (m.type === 'cancel') return running.get(m.id)?.abort();
		const ac = new AbortController();
		running.set(m.id, ac);
		const work =
			m.type === 'index'
				? indexer.indexFolders(m.folders, {
						signal: ac.signal,
						onProgress: (progress) => send({ type: 'progress', id: m.id, progress }),
					})
				: m.type === 'reindexFile'
					? indexer.reindexFile(m.path, ac.signal)
					: m.type === 'reindexPaths'
						? indexer.reindexPaths(m.paths, ac.signal, m.folders)
						: indexer.removeFile(m.path);
		work
			.then(
				(result) => send({ type: 'done', id: m.id, result }),
				(e: unknown) =>
					send({
						type: 'error',
						id: m.id,
						message: e instanceof Error ? e.message : String(e),
						cancelled: ac.signal.aborted,
					}),
			)
			.finally(() => running.delete(m.id));
	});
	port.postMessage({ type: 'ready' });
}

if (parentPort) {
	const port = parentPort;
	main(port, workerData as IndexWorkerConfig).catch((e: unknown) => {
		// Reported to the host as a startup failure; the host decides whether to restart.
		port.postMessage({ type: 'fatal', message: e instanceof Error ? e.message : String(e) });
	});
}
