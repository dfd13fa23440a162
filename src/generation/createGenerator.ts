/**
 * Chooses the generator from settings. Pure of `vscode`: the LM API arrives as a port.
 */
import { EvidenceOnlyGenerator } from './evidenceOnlyGenerator';
import type { Generator } from './generator';
import { LmGenerator, type LmPort } from './lmGenerator';
import { OpenAiGenerator } from './openaiGenerator';

/** The `gatedMemory.generator` setting and the OpenAI-compatible endpoint's settings. */
export interface GeneratorConfig {
	kind: 'auto' | 'lm' | 'openai' | 'evidence';
	openai: {
		baseUrl: string;
		model: string;
		apiKey: string | null;
		/** Longest silence before the request fails (see OpenAiGeneratorOptions.timeoutMs). */
		timeoutMs?: number;
	};
}

/**
 * The generator for `config`:
 * - `'auto'`: the LM API if it offers a model now; else the OpenAI-compatible endpoint if a base
 *   URL is set; else evidence-only (the extension is useful offline and never dead).
 * - `'lm'` / `'openai'` / `'evidence'`: that generator, **even when it is unusable** (no LM API
 *   port, no model, no base URL): the choice is the user's, so it is honoured and its first
 *   `generate` call fails with a GenerationError that says what is missing, instead of quietly
 *   answering with something else.
 * Never throws: a failing model lookup during 'auto' falls through to the next choice.
 */
export async function createGenerator(config: GeneratorConfig, ports: { lm?: LmPort }): Promise<Generator> {
	const openai = () =>
		new OpenAiGenerator({
			baseUrl: config.openai.baseUrl,
			model: config.openai.model,
			apiKey: config.openai.apiKey,
			timeoutMs: config.openai.timeoutMs,
		});
	switch (config.kind) {
		case 'lm':
			return new LmGenerator(ports.lm ?? null);
		case 'openai':
			return openai();
		case 'evidence':
			return new EvidenceOnlyGenerator();
		case 'auto': {
			const model = ports.lm ? await firstModel(ports.lm) : null;
			if (model && ports.lm) return new LmGenerator(ports.lm, {}, model);
			if (config.openai.baseUrl.trim()) return openai();
			return new EvidenceOnlyGenerator();
		}
	}
}

async function firstModel(port: LmPort) {
	try {
		return (await port.selectModels({}))[0] ?? null;
	} catch {
		// An LM API that fails to list models offers none: 'auto' moves on to the next choice.
		return null;
	}
}
