/**
 * Fits an embedder narrower than the store's vector column (e.g. a 256-d static model into the
 * 384-d column) by appending zeros. Cosine similarity is unchanged (same dot product, same norm),
 * and vectors of different embedders are never compared (every search filters on the embedder
 * id), so padding is exact, not an approximation. A wider embedder is refused with a clear error.
 */
import type { Embedder } from './embedder';

/** The embedder as the store sees it: `width` dimensions, same id and semantics. */
export function fitToWidth(embedder: Embedder, width: number): Embedder {
	if (embedder.dim === width) return embedder;
	if (embedder.dim > width)
		throw new Error(`embedder ${embedder.id} has ${embedder.dim} dimensions; the store's vector column holds ${width}`);
	return {
		id: embedder.id,
		dim: width,
		semantic: embedder.semantic,
		async embed(texts, signal) {
			const out = await embedder.embed(texts, signal);
			return out.map((v) => {
				const padded = new Float32Array(width);
				padded.set(v);
				return padded;
			});
		},
	};
}
