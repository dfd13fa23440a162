/**
 * An agent that tunnels model downloads through an HTTP proxy (`http.proxy`, else
 * `HTTPS_PROXY`/`HTTP_PROXY`) with CONNECT, then speaks TLS to the hub inside the tunnel.
 * Written here rather than pulled in as a dependency: it is ~40 lines and needs nothing else.
 * Only `http://` proxies are supported; credentials in the URL become Proxy-Authorization.
 */
import * as http from 'node:http';
import * as https from 'node:https';
import type { Socket } from 'node:net';
import * as tls from 'node:tls';

type Callback = (err: Error | null, socket?: Socket) => void;

/** The proxy to use for `target`, or undefined for a direct connection (NO_PROXY honoured). */
export function proxyFor(setting: string | undefined, env: NodeJS.ProcessEnv, target: string): string | undefined {
	const host = new URL(target).hostname;
	const noProxy = (env.NO_PROXY ?? env.no_proxy ?? '')
		.split(',')
		.map((s) => s.trim().replace(/^\*?\./, ''))
		.filter(Boolean);
	if (noProxy.some((n) => n === '*' || host === n || host.endsWith(`.${n}`))) return undefined;
	return setting?.trim() || env.HTTPS_PROXY || env.https_proxy || env.HTTP_PROXY || env.http_proxy || undefined;
}

/** An agent for requests to `target`'s protocol through `proxyUrl`; `strictSSL` checks the hub's certificate. */
export function tunnelAgent(proxyUrl: string, target: string, strictSSL: boolean): http.Agent {
	const proxy = new URL(proxyUrl);
	if (proxy.protocol !== 'http:')
		throw new Error(
			`unsupported proxy ${proxy.protocol}//${proxy.host}: only http:// proxies are supported for model downloads`,
		);
	const secure = new URL(target).protocol === 'https:';
	const auth = proxy.username
		? `Basic ${Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString('base64')}`
		: undefined;
	const connect = (
		options: { host?: string | null; hostname?: string | null; port?: number | string | null; servername?: string },
		cb: Callback,
	) => {
		const host = options.hostname ?? options.host ?? 'localhost';
		const port = Number(options.port ?? (secure ? 443 : 80));
		const req = http.request({
			host: proxy.hostname,
			port: Number(proxy.port || 80),
			method: 'CONNECT',
			path: `${host}:${port}`,
			headers: { host: `${host}:${port}`, ...(auth ? { 'proxy-authorization': auth } : {}) },
		});
		req.once('connect', (res, socket) => {
			if (res.statusCode !== 200) {
				socket.destroy();
				return cb(new Error(`the proxy ${proxy.host} refused the tunnel to ${host}:${port} (HTTP ${res.statusCode})`));
			}
			if (!secure) return cb(null, socket);
			const tlsSocket = tls.connect({ socket, servername: options.servername ?? host, rejectUnauthorized: strictSSL });
			tlsSocket.once('secureConnect', () => cb(null, tlsSocket));
			tlsSocket.once('error', (e) => cb(e));
		});
		req.once('error', (e) => cb(new Error(`cannot reach the proxy ${proxy.host}: ${e.message}`)));
		req.end();
	};
	const agent = secure ? new https.Agent({ keepAlive: false }) : new http.Agent({ keepAlive: false });
	// Node's Agent accepts an asynchronous createConnection (callback form).
	(agent as unknown as { createConnection: typeof connect }).createConnection = connect;
	return agent;
}
