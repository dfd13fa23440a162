/**
 * Turns texts into unit-length vectors for the vector arm. Implementations: the ONNX embedder
 * (models issue), and a deterministic hashing embedder for tests only (never shipped as semantic).
 */
export interface Embedder {
	/** Stable id of the model (+ revision); stored with every vector so mixed embeddings are detected. */
	readonly id: string;
	/** Vector dimension. */
	readonly dim: number;
	/** Whether similarity between its vectors means anything semantically (false for the hashing test embedder). */
	readonly semantic: boolean;
	/** Embeds a batch; each result has length `dim` and L2 norm 1 (or all zeros for an empty text). */
	embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]>;
}
