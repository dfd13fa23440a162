/**
 * What the store commands (ingest, search, inspect, forget) share: opening the store named by
 * `--db` / `$GMEM_DB` (exit 2 when it cannot be opened), choosing the embedder, and workspaces.
 */
import { loadBuiltinEmbedder } from '../models/builtinEmbedder';
import { HashingEmbedder } from '../models/hashingEmbedder';
import { createModelServices } from '../models/modelServices';
import type { Embedder } from '../models/embedder';
import { codeTokens } from '../retrieval/codeTokens';
import { DEFAULT_EMBEDDER, EMBEDDER_CHOICES, type EmbedderChoice } from '../retrieval/retrievalPlan';
import { resolveStoreLocation, workspaceId } from '../store/location';
import { openStore, type Store } from '../store/openStore';
import { resolve } from 'node:path';
import { StoreUnavailableError, UsageError, type CliIo } from './cliTypes';

/** Options every store command accepts. */
export const STORE_OPTIONS = {
	db: { type: 'string' },
	// The user/team scope read and written (default: $GMEM_SCOPE, else 'local').
	scope: { type: 'string' },
	json: { type: 'boolean', default: false },
} as const;

/** `--db` alone, or the parsed `--db` and `--scope` options. */
export type StoreArgs = string | undefined | { db?: string; scope?: string };

/** Opens the store for a command; a failure becomes StoreUnavailableError (exit 2). */
export async function openCliStore(args: StoreArgs, io: CliIo): Promise<Store> {
	const { db, scope } = typeof args === 'object' ? args : { db: args, scope: undefined };
	const location = resolveStoreLocation(db, io.env, io.cwd, scope);
	const opened = await openStore(location);
	if (!opened.ok)
		throw new StoreUnavailableError(`cannot open the store (${opened.error.code}): ${opened.error.message}`);
	return opened.value;
}

/** Runs `fn` with an open store and always closes it. */
export async function withStore<T>(args: StoreArgs, io: CliIo, fn: (store: Store) => Promise<T>): Promise<T> {
	const store = await openCliStore(args, io);
	try {
		return await fn(store);
	} finally {
		await store.close();
	}
}

/** The embedder a command uses, and how to release it (the model worker). */
export interface CliEmbedder {
	embedder: Embedder | null;
	dispose(): Promise<void>;
}

/**
 * Which embedder `--embedder` (else `$GMEM_EMBEDDER`) names; with neither, the product's default
 * (`builtin`, as in the extension). An unknown name is a usage error.
 */
export function embedderChoice(choice: string | undefined, env: NodeJS.ProcessEnv): EmbedderChoice {
	const name = choice ?? (env.GMEM_EMBEDDER || undefined) ?? DEFAULT_EMBEDDER;
	if (!(EMBEDDER_CHOICES as readonly string[]).includes(name))
		throw new UsageError(`--embedder must be one of ${EMBEDDER_CHOICES.join(', ')} (got "${name}")`);
	return name as EmbedderChoice;
}

/**
 * The embedder for `--embedder` (embedderChoice): `builtin` is the shipped static model (no
 * worker, no download); `minilm` the ONNX all-MiniLM-L6-v2 from the model cache or
 * `$GMEM_MODEL_DIR` (never downloaded here; when it cannot load, the command runs lexical-only and
 * says why); `hashing` a TEST embedder — not semantic, only by explicit choice, and every run says
 * so on stderr; `none` lexical-only. Call `dispose` when done (it stops the model worker).
 */
export async function openCliEmbedder(choice: string | undefined, io: CliIo): Promise<CliEmbedder> {
	const name = embedderChoice(choice, io.env);
	const plain = (embedder: Embedder | null): CliEmbedder => ({ embedder, dispose: async () => undefined });
	if (name === 'none') return plain(null);
	if (name === 'builtin') return plain(await loadBuiltinEmbedder());
	if (name === 'hashing') {
		io.stderr(
			'gmem: --embedder hashing: test/hashing-384 is a hashing TEST embedder for tests, NOT semantic (the default is builtin)\n',
		);
		return plain(new HashingEmbedder(384, codeTokens));
	}
	const services = createModelServices({
		reranker: null,
		allowDownload: false,
		...(io.env.GMEM_MODEL_DIR ? { localModelDir: io.env.GMEM_MODEL_DIR } : {}),
	});
	const loaded = services.embedder ? await services.embedder.load() : null;
	if (services.embedder && loaded?.ok) return { embedder: services.embedder, dispose: () => services.dispose() };
	await services.dispose();
	io.stderr(
		`gmem: the MiniLM embedder is not available (${loaded && !loaded.ok ? loaded.error.message : 'not configured'}): lexical-only\n`,
	);
	return plain(null);
}

/** The workspace id for `--workspace DIR`, else the current directory. */
export function workspaceOf(dir: string | undefined, io: CliIo): string {
	return workspaceId(resolve(io.cwd, dir ?? '.'));
}

/** Parses a positive integer option. */
export function positiveInt(value: string | undefined, name: string, fallback: number): number {
	if (value === undefined) return fallback;
	const n = Number(value);
	if (!Number.isInteger(n) || n < 1) throw new UsageError(`${name} must be a positive whole number (got "${value}")`);
	return n;
}
