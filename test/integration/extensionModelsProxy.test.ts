/**
 * Model downloads through an HTTP proxy (the extension's `http.proxy`): the extension's tunnel
 * agent CONNECTs through a real proxy on 127.0.0.1 to the hub-shaped server, and the runtime's
 * download (consent given) lands a validated model; a proxy that refuses gives a plain error.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { proxyFor, tunnelAgent } from '../../src/extension/models/modelsProxy';
import { ModelsRuntime, type ModelSettings } from '../../src/chat/modelsRuntime';
import type { ModelProgress } from '../../src/models/modelManager';
import { FakeHub } from '../fixtures/models/hubServer';
import { tempDir, tinyManifest, writeTinyModel } from '../fixtures/models/tinyModels';
import { quietLogger as quiet } from '../fixtures/hostDoubles';

/** A minimal CONNECT proxy that records the tunnels it opened (or refuses them all). */
async function startProxy(refuse = false): Promise<{ url: string; tunnels: string[]; server: Server }> {
	const tunnels: string[] = [];
	const server = createServer((_req, res) => res.writeHead(405).end());
	server.on('connect', (req, client, head) => {
		tunnels.push(req.url ?? '');
		if (refuse) return client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
		const [host, port] = (req.url ?? '').split(':');
		const upstream = connect(Number(port), host, () => {
			client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
			upstream.write(head);
			upstream.pipe(client).pipe(upstream);
		});
		upstream.on('error', () => client.destroy());
		client.on('error', () => upstream.destroy());
	});
	await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
	return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, tunnels, server };
}

describe('extension: model downloads through http.proxy (real proxy, fake hub)', function () {
	this.timeout(60_000);
	const manifest = tinyManifest('embedder');
	let tmp: ReturnType<typeof tempDir>;
	let hub: FakeHub;

	beforeEach(async () => {
		tmp = tempDir('proxy');
		const source = join(tmp.dir, 'source');
		writeTinyModel(source, 'embedder');
		hub = new FakeHub();
		await hub.start();
		for (const f of Object.values(manifest.files))
			hub.put(manifest.repo, manifest.revision, f.path, readFileSync(join(source, f.path)));
	});
	afterEach(async () => {
		await hub.stop();
		tmp.cleanup();
	});

	const runtime = (proxyUrl: string) => {
		const settings: ModelSettings = { embedder: 'minilm', reranker: 'none', hubEndpoint: hub.url, localPath: '' };
		return new ModelsRuntime({
			log: quiet,
			cacheDir: join(tmp.dir, 'cache'),
			settings: () => settings,
			manifests: { embedder: manifest, reranker: tinyManifest('reranker') },
			agent: () => tunnelAgent(proxyUrl, hub.url, true),
		});
	};

	it('downloads through the tunnel, with progress, and the model is then present', async () => {
		const proxy = await startProxy();
		const models = runtime(proxy.url);
		try {
			assert.deepEqual(
				models.missing().map((m) => m.name),
				['tiny-embedder'],
			);
			const progress: ModelProgress[] = [];
			const r = await models.download(manifest, new AbortController().signal, (p) => progress.push(p));
			assert.ok(r.ok, r.ok ? '' : r.error.message);
			const hubHost = new URL(hub.url).host;
			assert.ok(proxy.tunnels.length >= 4 && proxy.tunnels.every((t) => t === hubHost), proxy.tunnels.join(','));
			assert.ok(progress.some((p) => p.file === manifest.files.onnx.path && p.received > 0));
			assert.deepEqual(models.missing(), []);
			const active = await models.activeEmbedder();
			assert.equal(active.status, 'ready');
		} finally {
			await models.dispose();
			proxy.server.close();
		}
	});

	it('a proxy that refuses the tunnel gives a plain error and downloads nothing', async () => {
		const proxy = await startProxy(true);
		const models = runtime(proxy.url);
		try {
			const r = await models.download(manifest, new AbortController().signal);
			assert.ok(!r.ok);
			assert.match(r.error.message, /refused the tunnel .*HTTP 403/);
			assert.equal(models.missing().length, 1);
		} finally {
			await models.dispose();
			proxy.server.close();
		}
	});

	it('picks the proxy from the setting, else the environment, and honours NO_PROXY', () => {
		assert.equal(proxyFor('http://p:3128', {}, 'https://huggingface.co'), 'http://p:3128');
		assert.equal(proxyFor('', { HTTPS_PROXY: 'http://e:8080' }, 'https://huggingface.co'), 'http://e:8080');
		assert.equal(proxyFor('http://p:3128', { NO_PROXY: '.huggingface.co' }, 'https://huggingface.co'), undefined);
		assert.throws(() => tunnelAgent('socks5://p:1080', 'https://huggingface.co', true), /only http:\/\/ proxies/);
	});
});
