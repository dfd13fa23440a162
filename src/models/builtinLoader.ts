/**
 * The seam to the built-in static embedder (`./builtinEmbedder`, issue 8), which ships inside
 * the .vsix. Until that module exists, `builtinModule()` returns null and callers treat `builtin`
 * as "no embedder yet". The require sits in a try block so esbuild bundles the module when it is
 * there and leaves a harmless runtime require (caught below) when it is not.
 */
import type { Embedder } from './embedder';

/** What the built-in embedder module exports. */
export interface BuiltinEmbedderModule {
	BUILTIN_EMBEDDER_ID: string;
	loadBuiltinEmbedder(dir?: string): Promise<Embedder>;
}

let cached: BuiltinEmbedderModule | null | undefined;

/** The built-in embedder module, or null while it has not landed in this build. */
export function builtinModule(): BuiltinEmbedderModule | null {
	if (cached !== undefined) return cached;
	try {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const m = require('./builtinEmbedder') as Partial<BuiltinEmbedderModule>;
		cached =
			typeof m.loadBuiltinEmbedder === 'function' && typeof m.BUILTIN_EMBEDDER_ID === 'string'
				? (m as BuiltinEmbedderModule)
				: null;
	} catch {
		cached = null;
	}
	return cached;
}
