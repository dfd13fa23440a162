/**
 * How the CLI resolves its models and retrieval configuration from flags: with no flags, the
 * extension's defaults (built-in embedder and reranker, the chat path's pool sizes and floors;
 * CONTRACT.md "The CLI runs the product"). test/unit/retrievalDefaults.test.ts compares this with
 * what the extension resolves.
 */
import type { Thresholds } from '../core/thresholds';
import { LinearReranker } from '../models/linearReranker';
import { createModelServices } from '../models/modelServices';
import type { Reranker } from '../models/reranker';
import type { ArmMode } from '../retrieval/hybridSearch';
import {
	DEFAULT_RERANKER,
	defaultFloor,
	RERANKER_CHOICES,
	retrievalConfig,
	type RerankerChoice,
	type RetrievalConfig,
} from '../retrieval/retrievalPlan';
import type { ChunkTier } from '../store/chunkRepo';
import { UsageError, type CliIo } from './cliTypes';
import { embedderChoice } from './storeCli';

/** `--reranker NAME` (`--no-rerank` = none); default the product's (builtin). */
export function rerankerChoice(choice: string | undefined, noRerank = false): RerankerChoice {
	if (noRerank) return 'none';
	const name = choice ?? DEFAULT_RERANKER;
	if (!(RERANKER_CHOICES as readonly string[]).includes(name))
		throw new UsageError(`--reranker must be one of ${RERANKER_CHOICES.join(', ')} (got "${name}")`);
	return name as RerankerChoice;
}

/** The reranker a choice names: the built-in linear one, the ms-marco cross-encoder (never downloaded), or none. */
export function openCliReranker(
	choice: RerankerChoice,
	io: CliIo,
): { reranker: Reranker | null; dispose: () => Promise<void> } {
	if (choice === 'none') return { reranker: null, dispose: async () => undefined };
	if (choice === 'builtin') return { reranker: new LinearReranker(), dispose: async () => undefined };
	const services = createModelServices({
		embedder: null,
		allowDownload: false,
		...(io.env.GMEM_MODEL_DIR ? { localModelDir: io.env.GMEM_MODEL_DIR } : {}),
	});
	return { reranker: services.reranker, dispose: () => services.dispose() };
}

/** The flags that decide a search's configuration (as parsed; absent = default). */
export interface SearchFlags {
	embedder?: string;
	reranker?: string;
	'no-rerank'?: boolean;
	k?: number;
	arm?: ArmMode;
	tier?: ChunkTier;
	files?: boolean;
}

/** `gmem search`'s default k (CONTRACT.md). */
export const SEARCH_DEFAULT_K = 10;

/** What `gmem search` / `gmem eval retrieval` run with for these flags and environment. */
export function cliRetrievalConfig(flags: SearchFlags, env: NodeJS.ProcessEnv, t: Thresholds): RetrievalConfig {
	return retrievalConfig({
		embedder: embedderChoice(flags.embedder, env),
		reranker: rerankerChoice(flags.reranker, flags['no-rerank']),
		k: flags.k ?? SEARCH_DEFAULT_K,
		floor: defaultFloor(flags.tier ?? 'workspace', t),
		arm: flags.arm,
		files: flags.files,
		thresholds: t,
	});
}
