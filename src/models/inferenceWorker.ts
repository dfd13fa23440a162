/**
 * Entry point of the inference worker (bundled to dist/inferenceWorker.js). Runs as a
 * worker_threads worker or as a forked child process (IPC with advanced serialization); owns the
 * onnxruntime sessions so tokenising and inference never block the extension host's main thread.
 */
import { parentPort } from 'node:worker_threads';
import { InferenceHost } from './inferenceHost';

/** Wires the host to whichever channel this process was started with. */
function main(): void {
	if (parentPort) {
		const port = parentPort;
		const host = new InferenceHost((m, transfer) => port.postMessage(m, transfer ?? []));
		port.on('message', (m: unknown) => host.receive(m));
	} else if (process.send) {
		const host = new InferenceHost((m) => process.send?.(m));
		process.on('message', (m: unknown) => host.receive(m));
		// The parent going away (crash, kill) must not leave an orphan holding 100+ MB.
		process.on('disconnect', () => process.exit(0));
	}
}

main();
